/**
 * The workstation window in browser mode (issue 4's figures), in Debian's Chromium:
 *   - time to first screen: node host start to BRIDGE_READY, then page load to the first screen drawn;
 *   - IPC round trip over the bridge: a small call and a page of 100 table rows, from the page itself;
 *   - scrolling and filtering the participants table of 10,000 and the recordings table of 100,000:
 *     frames per second while scrolling (and frames over 50 ms), and time from typing a search to the
 *     table showing its answer.
 * Run alone: `npx tsx test/bench/ui.bench.ts`.
 */
import { chromium, type Browser, type Page } from '@playwright/test';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_ARGS } from '../../playwright.config';
import { seedLargeStudy } from '../support/large-study';

const ROOT = join(import.meta.dirname, '..', '..');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

const startHost = async (home: string): Promise<{ child: ChildProcess; url: string; readyMs: number }> => {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx/esm', join(ROOT, 'main/node-host.ts'), '--home', home, '--no-open'], { cwd: ROOT, env: { ...process.env, CI: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => { out += d; const m = /BRIDGE_READY (\S+)/.exec(out); if (m) resolve(m[1]!); });
    child.stderr!.on('data', (d: Buffer) => { out += d; });
    child.on('exit', () => reject(new Error(out)));
  });
  return { child, url, readyMs: performance.now() - t0 };
};
const stop = (c: ChildProcess) => new Promise<void>((r) => { c.once('exit', () => r()); c.kill('SIGTERM'); setTimeout(r, 5000); });

/** Time from navigation to the first screen's heading drawn. */
const firstScreen = async (browser: Browser, url: string): Promise<number> => {
  const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
  const t0 = performance.now();
  await page.goto(url);
  await page.locator('h1').first().waitFor();
  const ms = performance.now() - t0;
  await page.close();
  return ms;
};

/** Round trips over the page's own WebSocket to the bridge (same origin, same token), sequential. */
const roundTrips = (page: Page, method: string, input: unknown, n: number) => page.evaluate(async ({ method, input, n }) => {
  const token = sessionStorage.getItem('voicescope.token')!;
  const ws = new WebSocket(`ws://${location.host}/rpc?token=${encodeURIComponent(token)}`);
  await new Promise((r) => { ws.onopen = r; });
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await new Promise<void>((r) => {
      ws.onmessage = (e) => { if ((JSON.parse(String(e.data)) as { id?: number }).id === i + 1) r(); };
      ws.send(JSON.stringify({ id: i + 1, method, input }));
    });
    times.push(performance.now() - t);
  }
  ws.close();
  return times;
}, { method, input, n });

/** Scrolls the table's body a screen height per frame for `ms`; counts frames and long ones. */
const scrollFps = (page: Page, ms: number) => page.evaluate(async (ms) => {
  const body = document.querySelector('.grid-body') as HTMLElement;
  let frames = 0, long = 0, last = performance.now();
  const start = last;
  await new Promise<void>((done) => {
    const step = (t: number) => {
      frames++;
      if (t - last > 50) long++;
      last = t;
      body.scrollTop = (body.scrollTop + body.clientHeight) % Math.max(1, body.scrollHeight - body.clientHeight);
      if (t - start < ms) requestAnimationFrame(step); else done();
    };
    requestAnimationFrame(step);
  });
  const seconds = (performance.now() - start) / 1000;
  return { fps: frames / seconds, long, frames };
}, ms);

/** Types `text` into the search box and waits until the first row shows `expect`. */
const filterTime = async (page: Page, search: string, text: string, expect: string): Promise<number> => {
  const box = page.getByRole('searchbox').first();
  await box.fill('');
  await page.waitForTimeout(400);
  const t0 = performance.now();
  await box.fill(text);
  await page.locator('.grid-row').first().filter({ hasText: expect }).waitFor({ timeout: 10_000 });
  void search;
  return performance.now() - t0;
};

export const benchUi = async (): Promise<string[]> => {
  execFileSync(process.execPath, [join(ROOT, 'scripts/build.mjs')], { stdio: 'ignore' });
  const lines: string[] = [];
  const browser = await chromium.launch({ executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    // 1. Time to first screen, on an empty workspace (first run) and on a study of 10,000 participants.
    const empty = mkdtempSync(join(tmpdir(), 'vs-uibench-'));
    const large = mkdtempSync(join(tmpdir(), 'vs-uibench-large-'));
    const tSeed = performance.now();
    seedLargeStudy(large, { participants: 10_000, recordings: 100_000 });
    const seedMs = performance.now() - tSeed;
    try {
      const ready: number[] = [], screen: number[] = [];
      for (let i = 0; i < 3; i++) {
        const h = await startHost(empty);
        ready.push(h.readyMs);
        screen.push(await firstScreen(browser, h.url));
        await stop(h.child);
      }
      lines.push(`time to first screen (browser mode, empty workspace; median of 3): host start to BRIDGE_READY ${median(ready).toFixed(0)} ms + page load to first screen ${median(screen).toFixed(0)} ms = ${(median(ready) + median(screen)).toFixed(0)} ms`);

      const h = await startHost(large);
      try {
        const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
        const t0 = performance.now();
        await page.goto(h.url.replace('/?', '/?') );
        await page.locator('h1').first().waitFor();
        lines.push(`first screen with a study of 10,000 participants and 100,000 recordings (seeded in ${(seedMs / 1000).toFixed(1)} s): host ready ${h.readyMs.toFixed(0)} ms, page ${(performance.now() - t0).toFixed(0)} ms`);

        // 2. IPC round trips from the page.
        const small = await roundTrips(page, 'app.info', {}, 500);
        const rows = await roundTrips(page, 'participants.page', { studyId: 1, sort: 'code', dir: 'asc', offset: 5000, limit: 100 }, 100);
        const recs = await roundTrips(page, 'recordings.page', { studyId: 1, sort: 'recorded_at', dir: 'desc', offset: 50_000, limit: 100 }, 100);
        lines.push(`IPC round trip over the bridge (page → WebSocket → router with input and output checks → page):`);
        lines.push(`  app.info: p50 ${median(small).toFixed(2)} ms, p99 ${pct(small, 0.99).toFixed(2)} ms (500 calls)`);
        lines.push(`  participants.page, 100 rows of 10,000: p50 ${median(rows).toFixed(1)} ms, p99 ${pct(rows, 0.99).toFixed(1)} ms`);
        lines.push(`  recordings.page, 100 rows of 100,000 at offset 50,000: p50 ${median(recs).toFixed(1)} ms, p99 ${pct(recs, 0.99).toFixed(1)} ms`);

        // 3. Tables.
        for (const [name, hash, search, expect] of [
          ['participants table (10,000)', '#/studies/1/participants', 'P-07777', 'P-07777'],
          ['recordings table (100,000)', '#/studies/1/recordings', 'P-04321', 'P-04321'],
        ] as const) {
          if (process.env['VS_BENCH_SKIP_TABLES']) break;
          await page.evaluate((h) => { location.hash = h; }, hash);
          await page.locator('.grid-row').first().waitFor({ timeout: 30_000 });
          await page.waitForTimeout(500);
          const s = await scrollFps(page, 3000);
          const f: number[] = [];
          for (let i = 0; i < 5; i++) f.push(await filterTime(page, 'search', search, expect));
          lines.push(`${name}: scrolling a screen per frame for 3 s: ${s.fps.toFixed(1)} frames/s (${s.long} of ${s.frames} frames over 50 ms); search to first matching row: median ${median(f).toFixed(0)} ms (5 searches, debounce included)`);
        }
        await page.close();
      } finally {
        await stop(h.child);
      }
    } finally {
      rmSync(empty, { recursive: true, force: true });
      rmSync(large, { recursive: true, force: true });
    }
  } finally {
    await browser.close();
  }
  return lines;
};

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const l of await benchUi()) console.log(l);
}
