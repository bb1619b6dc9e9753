/**
 * What both ways of serving the built renderer send with it: the Electron shell's `app://` scheme
 * (main/electron/protocol.ts) and browser mode's bridge (main/rpc/ws-bridge.ts) answer with the same
 * Content Security Policy and the same content types.
 */

/** Only the app's own files: no inline script, no plugins, no framing, no remote connections. */
export const RENDERER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The content type of each kind of file the renderer build holds, by extension. */
export const RENDERER_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};
