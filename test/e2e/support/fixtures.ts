/**
 * End-to-end fixtures: every test gets its own browser-mode host (a node host with a fresh workspace
 * and the built-in sandbox in its fast scenario, test hooks on), a page for it (blank until the first
 * `openScreen`, or on the first screen with `firstScreen`), an `rpc` helper that speaks the same
 * contract over the bridge (to set things up quickly), the sandbox's admin routes (to inject faults),
 * screenshots under test-results/screenshots/ and an axe-core accessibility check.
 */
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import type { CallResult, Input, Method } from '../../../shared/contract';

const ROOT = join(import.meta.dirname, '..', '..', '..');
export const SCREENSHOTS = join(ROOT, 'test-results', 'screenshots');

export interface Host {
  readonly url: string;
  readonly origin: string;
  readonly token: string;
  readonly home: string;
  /** A folder for test recordings outside the workspace (import never reads inside the workspace). */
  readonly incoming: string;
  readonly log: () => string;
  rpc<M extends Method>(method: M, input: Input<M>): Promise<CallResult<M>>;
  /** The built-in sandbox's admin routes (`/_sandbox/...`); the sandbox must be running. */
  sandboxAdmin(method: 'GET' | 'PUT' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<unknown>;
}

const startHost = async (
  home: string,
  adminToken: string,
  scenario: string,
): Promise<{ child: ChildProcess; url: string; out: string[] }> => {
  const out: string[] = [];
  const child = spawn(
    process.execPath,
    [
      // The host as one bundle (scripts/build.mjs --host, built in the global set-up): it starts in a
      // quarter of the processor time the TypeScript sources take through tsx.
      join(ROOT, 'out', 'host', 'node-host.cjs'),
      '--home',
      home,
      '--no-open',
      '--sandbox-scenario',
      scenario,
    ],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        VOICESCOPE_TEST_HOOKS: '1',
        VOICESCOPE_TEST_SANDBOX_ADMIN_TOKEN: adminToken,
        CI: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    // Generous: on a machine shared by several engineers a start has taken 40 s.
    const timer = setTimeout(() => {
      // A host that did not start in time is stopped, not left running behind the failed test.
      child.kill('SIGKILL');
      reject(new Error(`node host did not start:\n${out.join('')}`));
    }, 90_000);
    const onData = (d: Buffer) => {
      out.push(d.toString());
      const m = /BRIDGE_READY (\S+)/.exec(out.join(''));
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d: Buffer) => out.push(d.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`node host exited (${code}):\n${out.join('')}`));
    });
  });
  return { child, url, out };
};

/** Calls the contract over the bridge from Node, as a second client of the same host. */
const rpcOver = (origin: string, token: string) => {
  let nextId = 1;
  return async <M extends Method>(method: M, input: Input<M>): Promise<CallResult<M>> => {
    const ws = new WebSocket(`${origin.replace('http', 'ws')}/rpc?token=${token}`, {
      headers: { Origin: origin },
    });
    await new Promise((res, rej) => {
      ws.once('open', res);
      ws.once('error', rej);
    });
    const id = nextId++;
    const answer = new Promise<CallResult<M>>((res) =>
      ws.on('message', (d) => {
        const m = JSON.parse(d.toString()) as { id?: number; envelope?: CallResult<M> };
        if (m.id === id) res(m.envelope!);
      }),
    );
    ws.send(JSON.stringify({ id, method, input }));
    const r = await answer;
    ws.close();
    return r;
  };
};

/** The window's address of each test's page, for `openScreen`'s first load. */
const appAddress = new WeakMap<Page, string>();

export const test = base.extend<{ host: Host; scenario: string; firstScreen: boolean }>({
  scenario: ['fast', { option: true }],
  /**
   * Whether the page opens on the window's first screen before the test starts. Off, the page stays blank
   * until the test's first `openScreen`, which loads that screen straight away: a test that sets up a study
   * first and then opens one of its screens loads the window once, not twice, and no window redraws
   * through the set-up's events.
   */
  firstScreen: [false, { option: true }],
  host: async ({ scenario }, use) => {
    const home = mkdtempSync(join(tmpdir(), 'vs-e2e-'));
    const incoming = mkdtempSync(join(tmpdir(), 'vs-e2e-in-'));
    const adminToken = randomBytes(16).toString('hex');
    const { child, url, out } = await startHost(home, adminToken, scenario);
    const u = new URL(url);
    const token = u.searchParams.get('token')!;
    const rpc = rpcOver(u.origin, token);
    await use({
      url,
      origin: u.origin,
      token,
      home,
      incoming,
      log: () => out.join(''),
      rpc,
      async sandboxAdmin(method, path, body) {
        const state = await rpc('sandbox.state', {});
        if (!state.ok || !state.value.url) throw new Error('the built-in sandbox is not running');
        const res = await fetch(`${state.value.url}/_sandbox/${path.replace(/^\//, '')}`, {
          method,
          headers: { 'X-Sandbox-Admin': adminToken, 'Content-Type': 'application/json' },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        });
        if (!res.ok) throw new Error(`sandbox admin ${method} ${path}: ${res.status} ${await res.text()}`);
        return res.json();
      },
    });
    child.kill('SIGTERM');
    await new Promise((r) => {
      child.once('exit', r);
      setTimeout(r, 5_000);
    });
    rmSync(home, { recursive: true, force: true });
    rmSync(incoming, { recursive: true, force: true });
  },
  page: async ({ page, host, firstScreen }, use) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    appAddress.set(page, host.url);
    if (firstScreen) await page.goto(host.url);
    await use(page);
    expect(errors, 'uncaught errors in the page').toEqual([]);
  },
});

export { expect };

/** The value of a contract call made for a test's set-up; a refusal fails the test with its error. */
export const ok = async <T>(
  p: Promise<{ ok: true; value: T } | { ok: false; error: unknown }>,
): Promise<T> => {
  const r = await p;
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
};

/**
 * Opens a screen by its address (the part after #), reloading so data set up through `rpc` is read afresh;
 * on a page not yet loaded (`firstScreen` off), by loading the window at that address.
 */
export const openScreen = async (page: Page, hash: string) => {
  const address = appAddress.get(page);
  if (address !== undefined && page.url() === 'about:blank') {
    const url = new URL(address);
    url.hash = hash;
    await page.goto(url.href);
    return;
  }
  await page.evaluate((h) => {
    location.hash = h;
  }, hash);
  await page.reload();
};

/** Waits until the window has drawn two more frames (charts follow a new width through a ResizeObserver). */
export const nextFrames = (page: Page) =>
  page.evaluate(
    () => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
  );

/**
 * Saves a full-page screenshot of a main screen (look at them: test-results/screenshots/). With
 * `{ fullPage: false }`, only what the window shows: for a screen already shot whole in another theme or
 * zoom, where the top of the page shows that theme or zoom as well as the whole would (the full-page
 * shots of the participant page's 37 charts were a fifth of its journey's time, docs/testing.md).
 */
export const shoot = async (page: Page, name: string, opts: { fullPage?: boolean } = {}) => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // From the top: the sidebar sticks to the window, so a page scrolled down would show it half-way.
  await page.evaluate(() => window.scrollTo(0, 0));
  // A full page of 37 charts takes 14-16 s to capture on a loaded 2-core machine: more than the 15 s
  // action limit, which is meant for waiting on the window, not for drawing a tall picture.
  await page.screenshot({
    path: join(SCREENSHOTS, `${name}.png`),
    fullPage: opts.fullPage ?? true,
    timeout: 60_000,
  });
};

/**
 * axe-core on the current screen (WCAG 2 A and AA rules); the test fails on any violation, listing them.
 * In axe's "legacy" mode: one `axe.run` in the page. The default mode runs axe in parts and finishes the
 * run in a second, blank page with axe injected again, which is there for cross-origin frames; the
 * window has no frames at all, and the default took twice as long for the same results (passes,
 * violations, incomplete and node counts equal on three screens, docs/testing.md). Only violations are
 * collected whole (axe's `resultTypes`): a rule that passes or is not met is still listed, with one
 * element instead of every element it looked at, so axe does not build a selector for each of them.
 */
export const checkA11y = async (page: Page, screen: string) => {
  const started = Date.now();
  const result = await new AxeBuilder({ page })
    .options({ resultTypes: ['violations'] })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .setLegacyMode()
    .analyze();
  const found = result.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} — ${v.nodes
        .slice(0, 3)
        .map((n) => n.target.join(' '))
        .join(' | ')}`,
  );
  console.log(
    `axe ${screen}: ${result.passes.length} rules passed, ${result.violations.length} violated (${Date.now() - started} ms)`,
  );
  expect(found, `accessibility violations on ${screen}`).toEqual([]);
};
