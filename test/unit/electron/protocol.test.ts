/**
 * The app:// scheme (main/electron/protocol.ts): GET only, files of the built renderer only, the strict
 * Content Security Policy on every answer, and no way out of the folder.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APP_ENTRY,
  APP_SCHEME_PRIVILEGES,
  ELECTRON_CSP,
  resolveAppPath,
  serveApp,
} from '../../../main/electron/protocol';

let base: string;
let root: string;
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'vs-proto-'));
  root = join(base, 'renderer');
  mkdirSync(root);
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Voicescope</title>');
  writeFileSync(join(root, 'app.js'), 'console.log(1)');
  writeFileSync(join(root, '.env'), 'SECRET=1');
  writeFileSync(join(base, 'secret.txt'), 'outside the renderer folder');
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const get = (url: string, method = 'GET') => serveApp(root, { method, url } as Request);

describe('app:// scheme', () => {
  it('is registered as a standard, secure scheme with no extra privileges', () => {
    expect(APP_SCHEME_PRIVILEGES).toEqual({
      scheme: 'app',
      privileges: { standard: true, secure: true, stream: true },
    });
    expect(APP_ENTRY).toBe('app://app/index.html');
  });

  it('serves the renderer with the strict CSP header', async () => {
    const res = await get('app://app/index.html');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(ELECTRON_CSP);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toContain('<title>Voicescope</title>');
    expect((await get('app://app/app.js')).headers.get('content-type')).toBe(
      'text/javascript; charset=utf-8',
    );
    expect((await get('app://app/')).status).toBe(200);
  });

  it('the CSP allows only the app itself: no inline or eval script, no plugins, no remote connections, no framing', () => {
    const d = Object.fromEntries(
      ELECTRON_CSP.split(';')
        .map((p) => p.trim().split(/\s+/))
        .map(([k, ...v]) => [k!, v]),
    );
    expect(d['default-src']).toEqual(["'self'"]);
    expect(d['script-src']).toEqual(["'self'"]);
    expect(d['connect-src']).toEqual(["'self'"]);
    expect(d['object-src']).toEqual(["'none'"]);
    expect(d['base-uri']).toEqual(["'none'"]);
    expect(d['frame-ancestors']).toEqual(["'none'"]);
    expect(ELECTRON_CSP).not.toMatch(/unsafe-inline|unsafe-eval|\*|https?:/);
  });

  it('answers GET only', async () => {
    for (const m of ['POST', 'PUT', 'DELETE', 'OPTIONS'])
      expect((await get('app://app/index.html', m)).status, m).toBe(405);
  });

  it('refuses every path that leaves the renderer folder, hidden files, other hosts and unknown types', async () => {
    const bad = [
      'app://app/../secret.txt',
      'app://app/%2e%2e/secret.txt',
      'app://app/..%2fsecret.txt',
      'app://app/..%5csecret.txt',
      'app://app/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      `app://app/${encodeURIComponent(join(base, 'secret.txt'))}`,
      'app://app/.env',
      'app://app/nothing-here.js',
      'app://evil/index.html',
      'app://user@app/index.html',
      'app://app/%00index.html',
      'app://app/%E0%A4%A',
      'file:///etc/passwd',
      'https://app/index.html',
    ];
    for (const u of bad) {
      expect(resolveAppPath(root, u) === null || (await get(u)).status === 404, u).toBe(true);
      expect((await get(u)).status, u).toBe(404);
    }
  });
});

describe('app:// media (a recording’s audio)', () => {
  const audio = () => join(base, 'take.wav');
  const media = async (id: number, which: 'original' | 'sent') =>
    id === 7 && which === 'original'
      ? { ok: true as const, value: { path: audio(), contentType: 'audio/wav', sizeBytes: 100 } }
      : { ok: false as const, error: 'There is no such recording.' };
  const getMedia = (url: string, range?: string) =>
    serveApp(
      root,
      { method: 'GET', url, headers: new Headers(range ? { Range: range } : {}) } as Request,
      media,
    );

  it('streams the file with byte ranges and the CSP, and refuses what names no recording', async () => {
    writeFileSync(audio(), Buffer.alloc(100, 7));
    const whole = await getMedia('app://app/media/recordings/7/original');
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('content-security-policy')).toBe(ELECTRON_CSP);
    expect((await whole.arrayBuffer()).byteLength).toBe(100);
    const part = await getMedia('app://app/media/recordings/7/original', 'bytes=10-19');
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 10-19/100');
    expect((await part.arrayBuffer()).byteLength).toBe(10);
    expect((await getMedia('app://app/media/recordings/7/original', 'bytes=200-')).status).toBe(416);
    expect((await getMedia('app://app/media/recordings/7/sent')).status).toBe(404);
    expect((await getMedia('app://app/media/recordings/7/../../secret.txt')).status).toBe(404);
    expect((await getMedia('app://other/media/recordings/7/original')).status).toBe(404);
  });
});
