/**
 * The browser-mode bridge over real loopback sockets: it serves the window with its Content Security
 * Policy, and carries calls and events only for a connection that presents this launch's token from
 * this server's own origin and address. Another web page (wrong Origin), a DNS-rebinding page (wrong
 * Host) or another local user (no token) gets nothing.
 */
import http from 'node:http';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ok } from '../../../shared/result';
import { createEventBus } from '../../../main/rpc/event-bus';
import { createMediaRoute } from '../../../main/rpc/media-route';
import { createRouter, type Handlers } from '../../../main/rpc/router';
import { BROWSER_CSP, startBridge, type Bridge } from '../../../main/rpc/ws-bridge';
import { procedures } from '../../../shared/contract';
import { appError } from '../../../shared/rpc';
import { err } from '../../../shared/result';

const dir = mkdtempSync(join(tmpdir(), 'vs-bridge-'));
/** Recording 7's original: 1,000 bytes on disk. */
const media = createMediaRoute({
  recordingAudio: async (id, which) =>
    id === 7 && which === 'original'
      ? ok({ path: join(dir, 'take.wav'), contentType: 'audio/wav', sizeBytes: 1000 })
      : err('There is no such recording.'),
});
const bus = createEventBus();
let bridge: Bridge;

const handlers = Object.fromEntries(
  Object.keys(procedures).map((m) => [m, () => err(appError('INTERNAL', 'x', 'y'))]),
) as unknown as Record<string, unknown>;
handlers['studies.list'] = () => ok([]);

beforeAll(async () => {
  mkdirSync(join(dir, 'static'));
  writeFileSync(join(dir, 'static', 'index.html'), '<!doctype html><title>v</title>');
  writeFileSync(join(dir, 'secret.txt'), 'outside the static folder');
  writeFileSync(join(dir, 'take.wav'), Buffer.alloc(1000, 1));
  bridge = await startBridge({
    router: createRouter(handlers as unknown as Handlers, { error: () => {} }),
    bus,
    staticDir: join(dir, 'static'),
    routes: (path, req, res) => {
      if (path === '/download/x') {
        res.end('file');
        return true;
      }
      return media(path, req, res);
    },
  });
});
afterAll(async () => {
  await bridge.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (path: string, headers: Record<string, string> = {}) =>
  new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: bridge.port, path, headers }, (res) => {
      let body = '';
      res.on('data', (c) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });

const connect = (opts: { token?: string; origin?: string; host?: string } = {}) =>
  new Promise<WebSocket>((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${bridge.port}/rpc?token=${opts.token ?? bridge.token}`, {
      headers: { Origin: opts.origin ?? bridge.origin, ...(opts.host ? { Host: opts.host } : {}) },
    });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });

const call = (ws: WebSocket, id: number, method: string, input: unknown) =>
  new Promise<unknown>((resolve) => {
    ws.on('message', (d) => {
      const m = JSON.parse(d.toString()) as { id?: number; envelope?: unknown };
      if (m.id === id) resolve(m.envelope);
    });
    ws.send(JSON.stringify({ id, method, input }));
  });

describe('serving the window', () => {
  it('serves index.html with the strict Content Security Policy and no caching', async () => {
    const r = await get('/');
    expect(r.status).toBe(200);
    expect(r.headers['content-security-policy']).toBe(BROWSER_CSP);
    expect(BROWSER_CSP).toContain("script-src 'self'");
    expect(BROWSER_CSP).not.toContain('unsafe');
    expect(r.headers['cache-control']).toBe('no-store');
    // No opener policy: it would move a fresh tab to a new renderer process before the first paint
    // (about 100 ms of the first screen; see securityHeaders in main/rpc/ws-bridge.ts).
    expect(r.headers['cross-origin-opener-policy']).toBeUndefined();
  });

  it('never serves a file outside its folder', async () => {
    expect((await get('/%2e%2e/secret.txt')).status).toBe(404);
    expect((await get('/..%2fsecret.txt')).status).toBe(404);
  });

  it('answers only to its own address (DNS rebinding: another Host is refused)', async () => {
    expect((await get('/', { Host: `evil.example:${bridge.port}` })).status).toBe(421);
  });

  it('downloads need a one-time ticket; the launch token in the address opens nothing', async () => {
    expect((await get('/download/x')).status).toBe(403);
    expect((await get(`/download/x?token=${bridge.token}`)).status).toBe(403);
    const ticket = bridge.issueDownloadTicket('/download/x');
    expect((await get(`/download/x?ticket=${ticket}`)).body).toBe('file');
    expect((await get(`/download/x?ticket=${ticket}`)).status).toBe(403);
  });
});

const mintTicket = (path: string, token = bridge.token) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: bridge.port,
        path: '/download-ticket',
        method: 'POST',
        headers: {
          Origin: bridge.origin,
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/json',
        },
      },
      (res) => {
        let body = '';
        res.on('data', (c) => {
          body += c;
        });
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ path }));
  });

describe('audio through the bridge', () => {
  const path = '/download/media/recordings/7/original';
  it('needs a session ticket, asked for with the token in a header; then streams byte ranges', async () => {
    expect((await get(path)).status).toBe(403);
    expect((await get(`${path}?token=${bridge.token}`)).status).toBe(403);
    expect((await mintTicket(path, 'wrong')).status).toBe(403);
    const minted = await mintTicket(path);
    expect(minted.status).toBe(200);
    const { url } = JSON.parse(minted.body) as { url: string };
    expect(url).not.toContain(bridge.token);
    // A media element reads in many requests: the same ticket serves them all.
    const first = await get(url, { Range: 'bytes=0-99' });
    expect(first.status).toBe(206);
    expect(first.headers['content-range']).toBe('bytes 0-99/1000');
    expect(first.body.length).toBe(100);
    const rest = await get(url, { Range: 'bytes=900-' });
    expect(rest.status).toBe(206);
    expect(rest.body.length).toBe(100);
    expect((await get(url)).headers['content-length']).toBe('1000');
    expect((await get(url, { Range: 'bytes=5000-' })).status).toBe(416);
    // Only for its own path.
    const other = url.replace('/7/original', '/8/original');
    expect((await get(other)).status).toBe(403);
  });
  it('answers a recording that has no such file with a sentence, not the file system', async () => {
    const { url } = JSON.parse((await mintTicket('/download/media/recordings/7/sent')).body) as {
      url: string;
    };
    const r = await get(url);
    expect(r.status).toBe(404);
    expect(r.body).toBe('There is no such recording.');
  });
});

describe('the RPC socket', () => {
  it('carries a call and its answer for the right origin, address and token', async () => {
    const ws = await connect();
    expect(await call(ws, 1, 'studies.list', {})).toEqual({ ok: true, value: [] });
    ws.close();
  });

  it('refuses another web page (wrong Origin)', async () => {
    await expect(connect({ origin: 'https://evil.example' })).rejects.toThrow('HTTP 403');
    await expect(connect({ origin: 'null' })).rejects.toThrow('HTTP 403');
  });

  it('refuses a connection without the launch token, or with a wrong one', async () => {
    await expect(connect({ token: '' })).rejects.toThrow('HTTP 401');
    await expect(connect({ token: `${bridge.token.slice(0, -1)}x` })).rejects.toThrow('HTTP 401');
  });

  it('refuses a rebinding page even with the right token', async () => {
    await expect(
      connect({ host: `attacker.example:${bridge.port}`, origin: `http://attacker.example:${bridge.port}` }),
    ).rejects.toThrow('HTTP 421');
  });

  it('relays pushed events to connected windows', async () => {
    const ws = await connect();
    const got = new Promise((resolve) => ws.on('message', (d) => resolve(JSON.parse(d.toString()))));
    bus.publish('imports.progress', { done: 3, total: 10 });
    expect(await got).toEqual({ event: 'imports.progress', payload: { done: 3, total: 10 } });
    ws.close();
  });

  it('closes a connection that sends something other than a call', async () => {
    const ws = await connect();
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    ws.send('{"hello": "world"}');
    expect(await closed).toBe(1008);
  });
});
