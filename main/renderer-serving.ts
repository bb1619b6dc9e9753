/**
 * What both ways of serving the built renderer send with it: the Electron shell's `app://` scheme
 * (main/electron/protocol.ts) and browser mode's bridge (main/rpc/ws-bridge.ts) answer with the same
 * Content Security Policy and the same content types.
 */

/**
 * The one inline style the window allows: the style element wavesurfer.js 7 writes into its waveform's
 * shadow root (the recording page's player), for a waveform WAVEFORM_HEIGHT_PX high (shared/media.ts).
 * Allowed by its hash, not with 'unsafe-inline'; test/unit/renderer/waveform-csp.test.ts recomputes it
 * from the installed wavesurfer.js, so an upgrade that changes the style fails there, not in the window.
 */
export const WAVEFORM_STYLE_HASH = "'sha256-gXnHDepVZ6KF6fKGOD+GVc9BynM50JQqht95p3HpemI='";

/**
 * Only the app's own files: no inline script, no plugins, no framing, no remote connections. Audio
 * (media-src, under default-src) comes from the app's own origin only: the recording player's
 * `/media/...` addresses, never a blob or another host.
 */
export const RENDERER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  `style-src 'self' ${WAVEFORM_STYLE_HASH}`,
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
