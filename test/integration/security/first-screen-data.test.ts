/**
 * The first screen's answers written into the window's page (issue 16, main/rpc/first-screen-data.ts):
 * only a page asked for with this launch's token carries them; what the host answers there cannot close
 * its element or start a script, whatever text the answer holds; an answer the contract refuses, or a
 * failed call, writes nothing and the page is served as built.
 */
import http from 'node:http';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventBus } from '../../../main/rpc/event-bus';
import { createRouter, type Handlers } from '../../../main/rpc/router';
import { BROWSER_CSP, startBridge, type Bridge } from '../../../main/rpc/ws-bridge';
import type { AppInfo } from '../../../shared/contract/app.contract';
import { FIRST_SCREEN_DATA_ID } from '../../../shared/first-screen-data';
import { err, ok } from '../../../shared/result';
import { appError } from '../../../shared/rpc';

const PAGE = `<!doctype html><html><head><title>v</title></head><body><div id="root"></div>
    <script type="module" src="app.js"></script></body></html>`;

/** A workspace folder whose name tries every way out of a script element. */
const HOSTILE = '/home/r/</script><script>alert(1)</script><!--<script>\u2028\u2029</SCRIPT >&amp;';
const INFO: AppInfo = {
  version: '1.0.0',
  mode: 'browser',
  platform: 'linux',
  workspaceDir: HOSTILE,
  keyStorage: { kind: 'key-file', protectedByOs: false, notice: 'A file only you can read.' },
  capabilities: { nativeDialogs: false },
  firstRun: true,
};

let answer: () => unknown = () => ok(INFO);
const dir = mkdtempSync(join(tmpdir(), 'vs-first-screen-'));
let bridge: Bridge;

beforeAll(async () => {
  mkdirSync(join(dir, 'static'));
  writeFileSync(join(dir, 'static', 'index.html'), PAGE);
  const handlers = { 'app.info': () => answer() } as unknown as Handlers;
  bridge = await startBridge({
    router: createRouter(handlers, { error: () => {} }),
    bus: createEventBus(),
    staticDir: join(dir, 'static'),
  });
});
afterAll(async () => {
  await bridge.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (path: string) =>
  new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port: bridge.port, path }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      })
      .on('error', reject);
  });

const OPEN = `<script type="application/json" id="${FIRST_SCREEN_DATA_ID}">`;
/** The block's text as an HTML parser sees it: everything up to the first `</script` (any case). */
const blockText = (page: string): string | null => {
  const at = page.indexOf(OPEN);
  if (at < 0) return null;
  const rest = page.slice(at + OPEN.length);
  return rest.slice(0, rest.search(/<\/script/i));
};

describe("the first screen's answers in the page", () => {
  it('are written into the page asked for with the launch token, before the entry script', async () => {
    answer = () => ok(INFO);
    const r = await get(`/?token=${bridge.token}`);
    expect(r.status).toBe(200);
    expect(r.headers['content-security-policy']).toBe(BROWSER_CSP);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.body.indexOf(OPEN)).toBeGreaterThan(0);
    expect(r.body.indexOf(OPEN)).toBeLessThan(r.body.indexOf('<script type="module"'));
    expect(JSON.parse(blockText(r.body)!)).toEqual({ 'app.info': INFO });
  });

  it('cannot leave their element: no "<" in it, and the page has only its own two scripts', async () => {
    answer = () => ok(INFO);
    const r = await get(`/index.html?token=${bridge.token}`);
    const text = blockText(r.body)!;
    expect(text).not.toContain('<');
    expect(text).not.toMatch(/[\u2028\u2029]/);
    expect(r.body.match(/<script/gi)).toHaveLength(2);
    expect(r.body.match(/<\/script/gi)).toHaveLength(2);
    // What the window reads back is the text as the host answered it.
    expect((JSON.parse(text) as { 'app.info': AppInfo })['app.info'].workspaceDir).toBe(HOSTILE);
  });

  it('are absent without the token and with another token', async () => {
    answer = () => ok(INFO);
    expect((await get('/')).body).toBe(PAGE);
    expect((await get('/index.html')).body).toBe(PAGE);
    expect((await get(`/?token=${bridge.token.slice(1)}x`)).body).toBe(PAGE);
    expect((await get(`/?token=`)).body).toBe(PAGE);
  });

  it('are absent when the call fails or answers outside its contract: the page as built', async () => {
    answer = () => err(appError('INTERNAL', 'x', 'y'));
    expect((await get(`/?token=${bridge.token}`)).body).toBe(PAGE);
    answer = () => ok({ ...INFO, version: 3, extra: '<script>' });
    expect((await get(`/?token=${bridge.token}`)).body).toBe(PAGE);
    answer = () => {
      throw new Error('boom');
    };
    expect((await get(`/?token=${bridge.token}`)).body).toBe(PAGE);
  });
});
