/**
 * The renderer is served from `app://app/` (never `file://`): a standard, secure custom scheme whose
 * handler answers GET requests for files under the built renderer folder only, with the strict
 * Content Security Policy as a response header. Anything else (another host, another method, a path
 * that climbs out of the folder, a missing file) is refused. A recording's audio
 * (`app://app/media/recordings/<id>/<original|sent>`, shared/media.ts) is streamed from its file with
 * byte ranges; nothing of it leaves the computer.
 */
import { readFile } from 'node:fs/promises';
import { extname, join, relative, resolve, sep, isAbsolute } from 'node:path';
import { Readable } from 'node:stream';
import { createReadStream } from 'node:fs';
import { parseMediaPath, type MediaSource } from '../../shared/media';
import type { Result } from '../../shared/result';
import { RENDERER_CSP, RENDERER_TYPES } from '../renderer-serving';
import { rangedHeaders, rangeOf } from '../rpc/ranged-file';

export const APP_SCHEME = 'app';
export const APP_HOST = 'app';
export const APP_ENTRY = `${APP_SCHEME}://${APP_HOST}/index.html`;

/** The window's Content Security Policy: only the app's own files, no inline script, no plugins, no framing, no remote connections. */
export const ELECTRON_CSP = RENDERER_CSP;

/**
 * For `protocol.registerSchemesAsPrivileged`, before the app is ready. No fetch, CORS or service-worker
 * privileges; `stream` lets a media element read a recording in byte ranges (the recording page's player).
 */
export const APP_SCHEME_PRIVILEGES = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, stream: true },
} as const;

/** Finds the file behind a `/media/...` address (main/services/recording-audio.service.ts). */
export type MediaLookup = (
  recordingId: number,
  which: MediaSource,
) => Promise<Result<{ path: string; contentType: string; sizeBytes: number }, string>>;

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

const SECURITY_HEADERS = {
  'Content-Security-Policy': ELECTRON_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

/** A recording's audio (`app://app/media/recordings/<id>/<which>`), with byte ranges. */
const serveMedia = async (
  media: MediaLookup,
  named: { recordingId: number; which: MediaSource },
  request: Request,
): Promise<Response> => {
  const f = await media(named.recordingId, named.which);
  if (!f.ok) return refuse(404, f.error);
  const range = rangeOf(request.headers?.get('range'), f.value.sizeBytes);
  const { status, headers } = rangedHeaders(range, f.value.sizeBytes, f.value.contentType);
  const body =
    status === 416 || f.value.sizeBytes === 0
      ? null
      : (Readable.toWeb(
          createReadStream(
            f.value.path,
            range && range !== 'unsatisfiable' ? { start: range.start, end: range.end } : {},
          ),
        ) as ReadableStream<Uint8Array>);
  return new Response(body, { status, headers: { ...headers, ...SECURITY_HEADERS } });
};

/** Answers one request of the `app:` scheme (the handler given to `protocol.handle`); `media` serves recordings' audio. */
export const serveApp = async (root: string, request: Request, media?: MediaLookup): Promise<Response> => {
  if (request.method !== 'GET') return refuse(405, 'Method not allowed');
  if (media) {
    let pathname: string | null = null;
    try {
      const u = new URL(request.url);
      if (u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST) pathname = u.pathname;
    } catch {
      pathname = null;
    }
    const named = pathname === null ? null : parseMediaPath(pathname);
    if (named) return serveMedia(media, named, request);
  }
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
    headers: { 'Content-Type': type, ...SECURITY_HEADERS },
  });
};
