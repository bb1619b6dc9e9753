/**
 * The renderer is served from `app://app/` (never `file://`): a standard, secure custom scheme whose
 * handler answers GET requests for files under the built renderer folder only, with the strict
 * Content Security Policy as a response header. Anything else (another host, another method, a path
 * that climbs out of the folder, a missing file) is refused.
 */
import { readFile } from 'node:fs/promises';
import { extname, join, relative, resolve, sep, isAbsolute } from 'node:path';
import { RENDERER_CSP, RENDERER_TYPES } from '../renderer-serving';

export const APP_SCHEME = 'app';
export const APP_HOST = 'app';
export const APP_ENTRY = `${APP_SCHEME}://${APP_HOST}/index.html`;

/** The window's Content Security Policy: only the app's own files, no inline script, no plugins, no framing, no remote connections. */
export const ELECTRON_CSP = RENDERER_CSP;

/** For `protocol.registerSchemesAsPrivileged`, before the app is ready. No fetch, CORS or service-worker privileges. */
export const APP_SCHEME_PRIVILEGES = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true },
} as const;

const TYPES = RENDERER_TYPES;

/** The file an `app://` URL names inside `root`, or null when it names anything else. */
export const resolveAppPath = (root: string, url: string): string | null => {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== `${APP_SCHEME}:` || u.host !== APP_HOST || u.username || u.password) return null;
  let path: string;
  try {
    path = decodeURIComponent(u.pathname);
  } catch {
    return null;
  }
  if (path.includes('\0') || path.includes('\\')) return null;
  const rel = path === '/' || path === '' ? 'index.html' : path.replace(/^\/+/, '');
  const base = resolve(root);
  const file = resolve(base, rel);
  const r = relative(base, file);
  if (
    r === '' ||
    r.startsWith('..') ||
    isAbsolute(r) ||
    r.split(sep).some((part) => part === '..' || part.startsWith('.'))
  )
    return null;
  return join(base, r);
};

const refuse = (status: number, text: string) =>
  new Response(text, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Security-Policy': ELECTRON_CSP },
  });

/** Answers one request of the `app:` scheme (the handler given to `protocol.handle`). */
export const serveApp = async (root: string, request: Request): Promise<Response> => {
  if (request.method !== 'GET') return refuse(405, 'Method not allowed');
  const file = resolveAppPath(root, request.url);
  if (file === null) return refuse(404, 'Not found');
  const type = TYPES[extname(file).toLowerCase()];
  if (type === undefined) return refuse(404, 'Not found');
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch {
    return refuse(404, 'Not found');
  }
  return new Response(new Uint8Array(body), {
    status: 200,
    headers: {
      'Content-Type': type,
      'Content-Security-Policy': ELECTRON_CSP,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cache-Control': 'no-store',
    },
  });
};
