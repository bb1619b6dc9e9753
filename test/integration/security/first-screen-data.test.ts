/**
 * The first screen's answers written into the window's page (main/rpc/first-screen-data.ts):
 * only a page asked for with this launch's token carries them; what the host answers there cannot close
 * its element or start a script, whatever text the answer holds; an answer the contract refuses, or a
 * failed call, writes nothing and the page is served as built. With the first screen rendered into the
 * page (main/rpc/first-screen-page.ts, browser mode's host), the screen is there only with the token,
 * every text in it escaped, and nothing is rendered when a call it makes fails.
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
import type { StudyView } from '../../../shared/contract/studies.contract';
import { FIRST_SCREEN_DATA_ID } from '../../../shared/first-screen-data';
import { err, ok } from '../../../shared/result';
import { appError } from '../../../shared/rpc';
import { TEAM_WORK } from '../../../shared/team';

const PAGE = `<!doctype html><html><head><title>v</title>
    <link rel="stylesheet" href="app.css" />
    <link rel="modulepreload" href="chunk-A.js" />
    <link rel="modulepreload" href="start-B.js" />
  </head><body><div id="root"></div>
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

/** The window asks whose study it is (the sidebar's team line, what a role may do): a study of one's own. */
const LOCAL_SESSION = {
  database: 'local',
  address: null,
  login: null,
  role: null,
  allowed: [...TEAM_WORK],
  problem: null,
};
const SESSION_ANSWER = { method: 'team.session', input: {}, value: LOCAL_SESSION };

let answer: () => unknown = () => ok(INFO);
let studies: () => unknown = () => ok([]);
const dir = mkdtempSync(join(tmpdir(), 'vs-first-screen-'));
let bridge: Bridge;
let rendering: Bridge;

beforeAll(async () => {
  mkdirSync(join(dir, 'static'));
  writeFileSync(join(dir, 'static', 'index.html'), PAGE);
  const handlers = {
    'app.info': () => answer(),
    'studies.list': () => studies(),
    'team.session': () => ok(LOCAL_SESSION),
  } as unknown as Handlers;
  bridge = await startBridge({
    router: createRouter(handlers, { error: () => {} }),
    bus: createEventBus(),
    staticDir: join(dir, 'static'),
  });
  rendering = await startBridge({
    router: createRouter(handlers, { error: () => {} }),
    bus: createEventBus(),
    staticDir: join(dir, 'static'),
    renderFirstScreen: true,
  });
}, 60_000);
afterAll(async () => {
  await bridge.close();
  await rendering.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (path: string, port = bridge.port) =>
  new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path }, (res) => {
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

/** A study whose name tries to leave its text. */
const STUDY: StudyView = {
  id: 7,
  name: '</script><script>alert(1)</script><img src=x onerror=alert(2)>',
  profileId: 1,
  profileName: '<b>lab</b>',
  sessionIntervalDays: 14,
  createdAt: '2026-01-01T00:00:00.000Z',
  apiVersion: 'v1.3',
  simulated: true,
  participants: 3,
  recordings: 12,
  completedRecordings: 9,
  needsAttention: 0,
  overdueParticipants: 1,
  lastRecordingAt: null,
};

describe('the first screen rendered into the page', () => {
  const page = (path = `/?token=${rendering.token}`) => get(path, rendering.port);

  it('is the set-up screen on first run, heading and form in the page, with its answers', async () => {
    answer = () => ok(INFO);
    const r = await page();
    expect(r.status).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.headers['content-security-policy']).toBe(BROWSER_CSP);
    expect(r.headers['server-timing']).toMatch(/^ssr;dur=\d+(\.\d)?(;desc="prepared")?$/);
    expect(r.body).toContain('<div id="root" data-screen="/setup">');
    expect(r.body).toMatch(/<h1[^>]*>Welcome to Voicescope/);
    expect(r.body).toContain('Use the sandbox');
    expect(r.body).toContain('value="Lab service"');
    expect(JSON.parse(blockText(r.body)!)).toEqual({
      'app.info': INFO,
      rendered: '/setup',
      answers: [SESSION_ANSWER],
    });
  });

  it('needs only its stylesheet to be painted: the scripts are not announced before it (the entry asks for them)', async () => {
    answer = () => ok(INFO);
    const r = await page();
    expect(r.body).toContain('<h1');
    expect(r.body).toContain('<link rel="stylesheet" href="app.css" />');
    expect(r.body).not.toContain('modulepreload');
    expect(r.body).toContain('<script type="module" src="app.js"></script>');
  });

  it('has its stylesheet asked for with the response (a Link preload header), before the parser reaches it', async () => {
    answer = () => ok(INFO);
    const r = await page();
    expect(r.headers['link']).toBe('<app.css>; rel=preload; as=style');
    expect(r.headers['content-security-policy']).toBe(BROWSER_CSP);
  });

  it('is served as rendered before while every answer it was drawn from holds, and rendered again when one changes', async () => {
    answer = () => ok({ ...INFO, firstRun: false });
    studies = () => ok([]);
    await page();
    const again = await page();
    expect(again.headers['server-timing']).toMatch(/;desc="prepared"$/);
    expect(again.body).toMatch(/<h1[^>]*>Studies/);
    studies = () => ok([STUDY]);
    const changed = await page();
    expect(changed.headers['server-timing']).not.toContain('prepared');
    expect(changed.body).toContain('&lt;b&gt;lab&lt;/b&gt;');
    answer = () => ok(INFO);
    const setUp = await page();
    expect(setUp.headers['server-timing']).not.toContain('prepared');
    expect(setUp.body).toMatch(/<h1[^>]*>Welcome to Voicescope/);
  });

  it('is the studies list once set up, with the list it was drawn from', async () => {
    answer = () => ok({ ...INFO, firstRun: false });
    studies = () => ok([STUDY]);
    const r = await page();
    expect(r.body).toContain('<div id="root" data-screen="/studies">');
    expect(r.body).toMatch(/<h1[^>]*>Studies/);
    const data = JSON.parse(blockText(r.body)!) as { rendered: string; answers: unknown[] };
    expect(data.rendered).toBe('/studies');
    expect(data.answers).toEqual(
      expect.arrayContaining([{ method: 'studies.list', input: {}, value: [STUDY] }, SESSION_ANSWER]),
    );
    expect(data.answers).toHaveLength(2);
  });

  it('keeps every text a text: a study named like markup opens no element and runs nothing', async () => {
    answer = () => ok({ ...INFO, workspaceDir: HOSTILE, firstRun: false });
    studies = () => ok([STUDY]);
    const r = await page();
    expect(r.body).toContain(
      '&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;',
    );
    expect(r.body).toContain('&lt;b&gt;lab&lt;/b&gt;');
    expect(r.body).not.toMatch(/<img/i);
    // The page's own two scripts, nothing else; and no style attribute (the CSP would refuse it).
    expect(r.body.match(/<script/gi)).toHaveLength(2);
    expect(r.body.match(/<\/script/gi)).toHaveLength(2);
    expect(r.body).not.toMatch(/\sstyle=/i);
    expect(blockText(r.body)).not.toContain('<');
  });

  it('is not there without the token or with another: the page as built, no screen, no answers', async () => {
    answer = () => ok(INFO);
    for (const path of ['/', '/index.html', `/?token=${rendering.token.slice(1)}x`, '/?token=']) {
      const r = await page(path);
      expect(r.body, path).toBe(PAGE);
      expect(r.headers['server-timing'], path).toBeUndefined();
    }
  });

  it('is not rendered when a call it makes fails: the page carries app.info alone, the window draws the screen', async () => {
    answer = () => ok({ ...INFO, firstRun: false });
    studies = () => err(appError('INTERNAL', 'x', 'y'));
    const r = await page();
    expect(r.body).toContain('<div id="root"></div>');
    expect(r.body.match(/modulepreload/g), 'the window draws the screen: its scripts announced').toHaveLength(
      2,
    );
    expect(JSON.parse(blockText(r.body)!)).toEqual({ 'app.info': { ...INFO, firstRun: false } });
    answer = () => err(appError('INTERNAL', 'x', 'y'));
    expect((await page()).body).toBe(PAGE);
  });
});
