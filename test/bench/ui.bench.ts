/**
 * The workstation window in browser mode, in Debian's Chromium:
 *   - time to first screen: node host start to BRIDGE_READY, then page load to the first screen drawn;
 *   - IPC round trips over the bridge, timed in the page: a small call and pages of 100 table rows;
 *   - the participants table of 10,000 and the recordings table of 100,000 (test/support/large-study.ts):
 *     time to the first rows, frames per second while scrolling a screen per frame (and frames over
 *     50 ms), time until a jump deep into the table has its rows, and time from typing a search to the
 *     first matching row (the 250 ms debounce included, and without it).
 * Code that runs in the page is passed as strings: tsx's name helpers do not exist there, and timing
 * is taken in the page (requestAnimationFrame, MutationObserver), not by Playwright's polling.
 * Run alone: `npx tsx test/bench/ui.bench.ts`.
 */
import { chromium, type Browser, type Page } from '@playwright/test';
import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBenchHost } from './bench-host';
import { CHROMIUM_ARGS } from '../../playwright.config';
import { seedCohortStudy } from '../support/cohort-study';
import { LARGE_STUDY, seedLargeStudy } from '../support/large-study';

const ROOT = join(import.meta.dirname, '..', '..');
const DEBOUNCE_MS = 250;
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (xs: readonly number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

const stop = (c: ChildProcess) =>
  new Promise<void>((r) => {
    c.once('exit', () => r());
    c.kill('SIGTERM');
    setTimeout(r, 5000);
  });

/**
 * One first-screen load in a fresh browser context (nothing cached), measured one of two ways:
 *  - `clock`: on the page's own clock, navigation start to the first heading in the DOM (the
 *    "from navigation to the first heading"): goto returns at the navigation's commit, then the page is
 *    polled every animation frame and answers `performance.now()` once an h1 is there (no init script,
 *    which would itself cost time; a heading present before the first poll is read at that poll);
 *  - `wall`: Playwright's wall time, goto waiting for `load`, then the h1 locator (the harness's own
 *    overhead included: a bare page holding only an h1 takes about 0.3 s this way on this machine);
 *  - `interactive`: on the page's clock as `clock`, navigation start to the window interactive: the
 *    first heading is React's (it has taken over the page the host rendered, or drawn the heading
 *    itself), so a press is handled rather than held (renderer/src/lib/early-input.ts).
 * The `clock` load also notes, from the page's own timing entries, its first contentful paint (for a
 * page holding its heading, as the host renders this build's first screen, the heading's first paint:
 * the `clock` poll runs in the page's main thread and waits behind the scripts' start) and the host's
 * render time (`Server-Timing: ssr`, main/rpc/first-screen-page.ts), into `paints`.
 */
type How = 'clock' | 'wall' | 'interactive';
type Paint = { fcp: number | null; ssr: number | null };
const firstScreen = async (browser: Browser, url: string, how: How, paints?: Paint[]): Promise<number> => {
  const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
  try {
    if (how === 'interactive') {
      await page.goto(url, { waitUntil: 'commit' });
      const h = await page.waitForFunction(
        () => {
          const h1 = document.querySelector('h1');
          return h1 && Object.keys(h1).some((k) => k.startsWith('__reactFiber')) && performance.now();
        },
        undefined,
        { polling: 'raf', timeout: 60_000 },
      );
      return (await h.jsonValue()) as number;
    }
    if (how === 'clock') {
      await page.goto(url, { waitUntil: 'commit' });
      const h = await page.waitForFunction(
        () => document.querySelector('h1') && performance.now(),
        undefined,
        {
          polling: 'raf',
          timeout: 60_000,
        },
      );
      const at = (await h.jsonValue()) as number;
      paints?.push(
        await page.evaluate(() => {
          const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null;
          const nav = performance.getEntriesByType('navigation')[0] as
            PerformanceNavigationTiming | undefined;
          const ssr = nav?.serverTiming.find((t) => t.name === 'ssr')?.duration ?? null;
          return { fcp, ssr };
        }),
      );
      return at;
    }
    const t0 = performance.now();
    await page.goto(url);
    await page.locator('h1').first().waitFor();
    return performance.now() - t0;
  } finally {
    await page.close();
  }
};

/** The floor: a page holding only a heading, served by a plain Node server, through the same harness. */
const startFloorPage = async (): Promise<{ url: string; close: () => Promise<void> }> => {
  const server = createServer((_, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html lang="en"><title>floor</title><h1>Floor</h1></html>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
};

/**
 * The window as it was before it was split by screen, for a side-by-side first-screen figure:
 * that commit's renderer and build script, extracted with `git archive` and built with this checkout's
 * packages. Another commit: UI_BENCH_BASELINE=<commit>. Null (and said why) where git cannot give it.
 */
export const BASELINE_COMMIT = process.env['UI_BENCH_BASELINE'] ?? '425c8fc686de07871ca96d65a5b495940b6534e3';
const buildBaseline = (dir: string): string | { why: string } => {
  try {
    const archive = execFileSync(
      'git',
      [
        'archive',
        BASELINE_COMMIT,
        'renderer',
        'shared',
        'scripts/build.mjs',
        'tsconfig.json',
        'package.json',
      ],
      { cwd: ROOT, maxBuffer: 256 * 1024 * 1024 },
    );
    execFileSync('tar', ['-x', '-C', dir], { input: archive });
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    execFileSync(process.execPath, [join(dir, 'scripts/build.mjs')], { cwd: dir, stdio: 'ignore' });
    return join(dir, 'out', 'renderer');
  } catch (e) {
    return { why: e instanceof Error ? e.message.split('\n')[0]! : String(e) };
  }
};

const scriptBytes = (dir: string, names: readonly string[]) =>
  names.reduce((n, f) => n + statSync(join(dir, f)).size, 0);
/** The scripts the first screen loads: the entry and the chunks its page announces (modulepreload). */
const firstScreenScripts = (dir: string): string[] => [
  'app.js',
  ...[...readFileSync(join(dir, 'index.html'), 'utf8').matchAll(/rel="modulepreload" href="([^"]+)"/g)].map(
    (m) => m[1]!,
  ),
];

/** Sequential round trips over a WebSocket of the page's own (same origin, same token), timed in the page. */
const roundTrips = (page: Page, method: string, input: unknown, n: number) =>
  page.evaluate(`(async () => {
  const token = sessionStorage.getItem('voicescope.token');
  const ws = new WebSocket('ws://' + location.host + '/rpc?token=' + encodeURIComponent(token));
  await new Promise((r) => { ws.onopen = r; });
  const times = [];
  for (let i = 1; i <= ${n}; i++) {
    const t = performance.now();
    await new Promise((r) => { ws.onmessage = (e) => { if (JSON.parse(e.data).id === i) r(); }; ws.send(JSON.stringify({ id: i, method: ${JSON.stringify(method)}, input: ${JSON.stringify(input)} })); });
    times.push(performance.now() - t);
  }
  ws.close();
  return times;
})()`) as Promise<number[]>;

/** Scrolls the table a screen per frame for `ms`; counts frames and frames over 50 ms. */
const scrollFps = (page: Page, ms: number) =>
  page.evaluate(`new Promise((done) => {
  const grid = document.querySelector('.grid');
  let frames = 0, long = 0, last = performance.now();
  const start = last;
  const step = (t) => {
    frames++; if (t - last > 50) long++; last = t;
    grid.scrollTop = (grid.scrollTop + grid.clientHeight) % Math.max(1, grid.scrollHeight - grid.clientHeight);
    if (t - start < ${ms}) requestAnimationFrame(step); else done({ fps: frames / ((performance.now() - start) / 1000), long, frames });
  };
  requestAnimationFrame(step);
})`) as Promise<{ fps: number; long: number; frames: number }>;

/** Jumps deep into the table; time until the rows in view have their data (no placeholders left). */
const jumpSettles = (page: Page, rows: number) =>
  page.evaluate(`new Promise((done) => {
  const grid = document.querySelector('.grid');
  const t0 = performance.now();
  grid.scrollTop = ${rows * 40};
  const check = () => { if (document.querySelectorAll('.grid-row').length > 0 && document.querySelectorAll('.grid-row .skeleton').length === 0) done(performance.now() - t0); else requestAnimationFrame(check); };
  requestAnimationFrame(check);
})`) as Promise<number>;

/** Types into the search box and times, in the page, until the first row shows `want`. */
const searchTime = (page: Page, text: string, want: string) =>
  page.evaluate(`new Promise((done) => {
  const box = document.querySelector('input[type=search]');
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
  const t0 = performance.now();
  const check = () => {
    const row = document.querySelector('.grid-row');
    if (row && row.textContent.includes(${JSON.stringify(want)}) && !row.querySelector('.skeleton')) { obs.disconnect(); done(performance.now() - t0); }
  };
  const obs = new MutationObserver(check);
  obs.observe(document.body, { subtree: true, childList: true, characterData: true });
  setTimeout(() => { obs.disconnect(); done(NaN); }, 15000); // never hang: NaN is reported as no match
  setValue.call(box, ${JSON.stringify(text)});
  box.dispatchEvent(new Event('input', { bubbles: true }));
})`) as Promise<number>;

const clearSearch = async (page: Page) => {
  await page.locator('input[type=search]').first().fill('');
  await page.waitForTimeout(DEBOUNCE_MS + 400);
};

/**
 * Notes, on the page's clock, when the answer to each `timeline.participant` call arrives over the
 * WebSocket (the answer in hand: before the page parses or checks it). Only the message's first
 * characters are read (`{"id":n,…`), so the 188 kB answer is not parsed twice.
 */
const TIMELINE_ANSWER_CLOCK = `(() => {
  const asked = new Set();
  window.__timelineAnswers = [];
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...a) {
      super(...a);
      this.addEventListener('message', (e) => {
        const m = /^\\{"id":(\\d+)/.exec(String(e.data).slice(0, 40));
        if (m && asked.has(Number(m[1]))) window.__timelineAnswers.push(performance.now());
      });
    }
    send(d) {
      const m = /^\\{"id":(\\d+),"method":"timeline\\.participant"/.exec(String(d));
      if (m) asked.add(Number(m[1]));
      return super.send(d);
    }
  };
})()`;

/**
 * Time in the page from `start` (code run first) until every chart in the grid has drawn (at least
 * `atLeast`; each canvas marks itself when drawn, `data-drawn` counting its draws), then one frame.
 * `inViewOnly`: every chart whose figure (title, summary, canvas) is in the window's view, even in part
 * (charts draw as they come near it).
 */
const chartsDrawn = (page: Page, start: string, atLeast: number, redrawAll = false, inViewOnly = false) =>
  chartsDrawnTimes(page, start, atLeast, redrawAll, inViewOnly).then((t) => t.total);

/** The same, and the time from the first timeline answer in hand after `start` (TIMELINE_ANSWER_CLOCK) to the end. */
const chartsDrawnTimes = (
  page: Page,
  start: string,
  atLeast: number,
  redrawAll = false,
  inViewOnly = false,
): Promise<{ total: number; sinceAnswer: number }> =>
  page.evaluate(`new Promise((done_at) => {
  const done = (t) => {
    const answer = (window.__timelineAnswers ?? []).find((a) => a >= t0);
    done_at({ total: t, sinceAnswer: answer === undefined ? NaN : t0 + t - answer });
  };
  const before = new Map([...document.querySelectorAll('.tgrid .tchart-canvas')].map((c) => [c, c.dataset.drawn]));
  const t0 = performance.now();
  ${start};
  const inView = (c) => { const r = (c.closest('figure') ?? c).getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; };
  const check = () => {
    const every = [...document.querySelectorAll('.tgrid .tchart-canvas')];
    const all = every.filter((c) => !${inViewOnly} || inView(c));
    const done_ = every.length >= ${atLeast} && all.length > 0 && all.every((c) => c.dataset.drawn !== undefined && (${redrawAll} ? c.dataset.drawn !== before.get(c) : true));
    if (done_) requestAnimationFrame(() => done(performance.now() - t0));
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
  setTimeout(() => done(NaN), 60000);
})`) as Promise<{ total: number; sinceAnswer: number }>;

/** How long the window is left after its first screen before the "settled" chart figures open a participant. */
const SETTLED_MS = 2500;

/**
 * Issue 16: the charts of a participant followed for 200 sessions: from opening their page to every
 * chosen chart drawn (timeline call, screen code and drawing), then every measure at once (37 charts,
 * drawing only: the data is in hand), median of five.
 */
export const benchCharts = async (browser: Browser): Promise<string[]> => {
  const home = mkdtempSync(join(tmpdir(), 'vs-uibench-charts-'));
  try {
    const { studyId, participants } = seedCohortStudy(home, {
      participants: 0,
      sessions: 0,
      longSessions: 200,
      now: Date.UTC(2026, 5, 1),
    });
    const pid = participants.get('P-LONG')!;
    // UI_BENCH_CHARTS_RENDERER=<dir>: another build of the window (e.g. an earlier commit's), same bench.
    const h = await startBenchHost(home, process.env['UI_BENCH_CHARTS_RENDERER']);
    const loadBefore = loadavg()[0]!;
    const open: number[] = [],
      axis: number[] = [],
      all: number[] = [];
    let shown = 0,
      total = 0;
    // Sets the axis select as a person would (React listens to the change event).
    const pickAxis = (v: string) =>
      `(() => { const s = [...document.querySelectorAll('select')].find((x) => x.labels[0]?.textContent === 'Time axis'); Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set.call(s, '${v}'); s.dispatchEvent(new Event('change', { bubbles: true })); })()`;
    const openInView: number[] = [],
      allInView: number[] = [],
      answerToView: number[] = [],
      settledOpen: number[] = [],
      settledAnswerToView: number[] = [];
    // A fresh window, left `settleMs` after its first heading, then the participant's page opened: the
    // page, and the times to the charts in view drawn (from the address set, and from the answer in hand).
    const openParticipant = async (settleMs: number) => {
      const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
      await page.addInitScript(TIMELINE_ANSWER_CLOCK);
      await page.goto(h.url);
      await page.locator('h1').first().waitFor();
      if (settleMs > 0) await page.waitForTimeout(settleMs);
      const hash = `#/studies/${studyId}/participants/${pid}`;
      const opened = await chartsDrawnTimes(page, `location.hash = ${JSON.stringify(hash)}`, 1, false, true);
      return { page, opened };
    };
    try {
      for (let i = 0; i < 5; i++) {
        // What a researcher sees in a 1360 × 900 window: the charts in view drawn (the others draw as
        // they are scrolled near).
        {
          process.stderr.write(`  200-session participant, charts in view, load ${i + 1} of 5…\n`);
          const { page, opened } = await openParticipant(0);
          openInView.push(opened.total);
          answerToView.push(opened.sinceAnswer);
          await page.waitForTimeout(800);
          await page.getByText(/^Measures shown:/).click();
          const every = await page
            .locator('.measure-picker-type')
            .evaluateAll((fs) => fs.reduce((n, f) => n + f.querySelectorAll('input').length - 1, 0));
          // The picker open above, the charts' grid at the top of the window, as after reading the list.
          await page.evaluate(`document.querySelector('.tgrid').scrollIntoView()`);
          await page.waitForTimeout(300);
          allInView.push(
            await chartsDrawn(
              page,
              `[...document.querySelectorAll('.measure-picker button')].find((b) => b.textContent === 'Show all').click()`,
              every,
              false,
              true,
            ),
          );
          await page.getByRole('button', { name: 'A few of each type' }).click();
          await page.waitForTimeout(500);
          await page.close();
        }
        // The same, the window settled first (SETTLED_MS after its first screen: its start-up, the
        // contract's checks and the other screens' code in idle time behind it), as when a researcher
        // opens a participant from the list rather than at the instant the window appears.
        {
          const { page, opened } = await openParticipant(SETTLED_MS);
          settledOpen.push(opened.total);
          settledAnswerToView.push(opened.sinceAnswer);
          await page.close();
        }
        // The earlier figures, same definitions: every chart drawn, in view or not. The page has no
        // IntersectionObserver, so every chart draws at once, as before (the charts' fallback).
        const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
        await page.addInitScript('delete window.IntersectionObserver');
        await page.goto(h.url);
        await page.locator('h1').first().waitFor();
        const hash = `#/studies/${studyId}/participants/${pid}`;
        process.stderr.write(`  200-session participant, load ${i + 1} of 5…\n`);
        open.push(await chartsDrawn(page, `location.hash = ${JSON.stringify(hash)}`, 1));
        shown = await page.locator('.tgrid figure').count();
        await page.waitForTimeout(300);
        axis.push(await chartsDrawn(page, pickAxis('visit'), shown, true));
        await page.waitForTimeout(300);
        await page.getByText(/^Measures shown:/).click();
        total = await page
          .locator('.measure-picker-type')
          .evaluateAll((fs) => fs.reduce((n, f) => n + f.querySelectorAll('input').length - 1, 0));
        all.push(
          await chartsDrawn(
            page,
            `[...document.querySelectorAll('.measure-picker button')].find((b) => b.textContent === 'Show all').click()`,
            total,
          ),
        );
        // Back to the default choice and axis for the next load (the choice is stored for the study).
        await page.getByRole('button', { name: 'A few of each type' }).click();
        await page.evaluate(pickAxis('date'));
        await page.waitForTimeout(500);
        await page.close();
      }
    } finally {
      await stop(h.child);
    }
    return [
      `charts of a participant with 200 sessions (median of 5, a fresh page each):`,
      `  open their page to all ${shown} chosen charts drawn (timeline call, screen code, drawing): ${median(open).toFixed(0)} ms (${open.map((x) => x.toFixed(0)).join(', ')})`,
      `  switch the axis, all ${shown} charts drawn again (drawing only): ${median(axis).toFixed(0)} ms (${axis.map((x) => x.toFixed(0)).join(', ')})`,
      `  "Show all", all ${total} charts drawn: ${median(all).toFixed(0)} ms (${all.map((x) => x.toFixed(0)).join(', ')})`,
      `  (those three with every chart drawn, in view or not, as before; the charts in view only:)`,
      `  open their page to the charts in view drawn: ${median(openInView).toFixed(0)} ms (${openInView.map((x) => x.toFixed(0)).join(', ')})`,
      `  "Show all", the charts in view drawn: ${median(allInView).toFixed(0)} ms (${allInView.map((x) => x.toFixed(0)).join(', ')})`,
      `  opening their page, the timeline answer in hand (arrived over the WebSocket) to the charts in view drawn: ${median(answerToView).toFixed(0)} ms (${answerToView.map((x) => x.toFixed(0)).join(', ')})`,
      `  the window settled first (${SETTLED_MS / 1000} s after its first screen), open their page to the charts in view drawn: ${median(settledOpen).toFixed(0)} ms (${settledOpen.map((x) => x.toFixed(0)).join(', ')})`,
      `  the window settled first, the timeline answer in hand to the charts in view drawn: ${median(settledAnswerToView).toFixed(0)} ms (${settledAnswerToView.map((x) => x.toFixed(0)).join(', ')})`,
      `  (load average ${loadBefore.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end)`,
    ];
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
};

/** `firstScreenOnly`: just the first screen, this build beside the earlier one (`npx tsx test/bench/ui.bench.ts first-screen`). */
export const benchUi = async ({ firstScreenOnly = false } = {}): Promise<string[]> => {
  execFileSync(process.execPath, [join(ROOT, 'scripts/build.mjs')], { stdio: 'ignore' });
  const lines: string[] = [];
  const browser = await chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  const empty = mkdtempSync(join(tmpdir(), 'vs-uibench-'));
  const emptyOld = mkdtempSync(join(tmpdir(), 'vs-uibench-old-'));
  const baselineTree = mkdtempSync(join(tmpdir(), 'vs-uibench-baseline-'));
  const large = mkdtempSync(join(tmpdir(), 'vs-uibench-large-'));
  try {
    // 1. Time to first screen: an empty workspace (first run), host started three times.
    const ready: number[] = [];
    for (let i = 0; i < 3; i++) {
      process.stderr.write(`  host start, run ${i + 1}…\n`);
      const h = await startBenchHost(empty);
      ready.push(h.readyMs);
      await stop(h.child);
    }
    // The page: this build and the build before the split, side by side in the same run,
    // each host serving one build to five fresh browser contexts, loads alternating between the two.
    process.stderr.write(`  building the window of ${BASELINE_COMMIT.slice(0, 10)} for comparison…\n`);
    const oldDir = buildBaseline(baselineTree);
    const built = join(ROOT, 'out', 'renderer');
    const hNew = await startBenchHost(empty);
    const hOld = typeof oldDir === 'string' ? await startBenchHost(emptyOld, oldDir) : null;
    const floor = await startFloorPage();
    const targets = [
      { name: 'this build', url: hNew.url },
      ...(hOld ? [{ name: `the build of ${BASELINE_COMMIT.slice(0, 10)}`, url: hOld.url }] : []),
      { name: 'bare <h1> page (floor)', url: floor.url },
    ];
    const ms = new Map(
      targets.map((t) => [
        t.name,
        { clock: [] as number[], wall: [] as number[], interactive: [] as number[] },
      ]),
    );
    const paints = new Map(targets.map((t) => [t.name, [] as Paint[]]));
    const loadBefore = loadavg()[0]!;
    try {
      for (let i = 0; i < 5; i++) {
        process.stderr.write(`  first screen, fresh contexts, round ${i + 1} of 5…\n`);
        for (const how of ['clock', 'wall'] as const)
          for (const t of targets)
            ms.get(t.name)![how].push(await firstScreen(browser, t.url, how, paints.get(t.name)));
        // React's heading: the windows only (the floor page has no React).
        for (const t of targets.filter((x) => x.url !== floor.url))
          ms.get(t.name)!.interactive.push(await firstScreen(browser, t.url, 'interactive'));
      }
    } finally {
      await stop(hNew.child);
      if (hOld) await stop(hOld.child);
      await floor.close();
    }
    const loadAfter = loadavg()[0]!;
    const fmt = (xs: number[]) => `${median(xs).toFixed(0)} ms (${xs.map((x) => x.toFixed(0)).join(', ')})`;
    const scripts = (dir: string) =>
      `first screen's scripts ${firstScreenScripts(dir).length} files, ${(scriptBytes(dir, firstScreenScripts(dir)) / 1024).toFixed(0)} KiB`;
    const oldName = `the build of ${BASELINE_COMMIT.slice(0, 10)}`;
    lines.push(
      `host start to BRIDGE_READY (empty workspace, median of 3): ${median(ready).toFixed(0)} ms`,
      `first screen (empty workspace, median of 5 fresh browser contexts each, alternating; load average ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after):`,
    );
    for (const how of ['clock', 'wall'] as const) {
      lines.push(
        how === 'clock'
          ? `  page's clock, navigation start to the first heading in the DOM:`
          : `  Playwright's wall time, goto (load) then the h1 locator:`,
      );
      for (const t of targets) lines.push(`    ${t.name}: ${fmt(ms.get(t.name)![how])}`);
      if (hOld)
        lines.push(
          `    this build / ${oldName}: ${(median(ms.get('this build')![how]) / median(ms.get(oldName)![how])).toFixed(2)}`,
        );
    }
    lines.push(`  the page's first contentful paint (its paint timing; the clock loads):`);
    for (const t of targets) {
      const fcp = paints.get(t.name)!.flatMap((p) => (p.fcp === null ? [] : [p.fcp]));
      lines.push(`    ${t.name}: ${fcp.length ? fmt(fcp) : 'not reported'}`);
    }
    const ssr = paints.get('this build')!.flatMap((p) => (p.ssr === null ? [] : [p.ssr]));
    lines.push(
      `  the host's render of this build's first screen (Server-Timing ssr): ${ssr.length ? fmt(ssr) : 'none: the page was not rendered'}`,
    );
    lines.push(`  page's clock, navigation start to the window interactive (the first heading is React's):`);
    for (const t of targets.filter((x) => x.url !== floor.url))
      lines.push(`    ${t.name}: ${fmt(ms.get(t.name)!.interactive)}`);
    lines.push(
      `  this build: ${scripts(built)}`,
      typeof oldDir === 'string'
        ? `  ${oldName}: ${scripts(oldDir)}`
        : `  ${oldName}: not measured (${oldDir.why})`,
    );
    if (firstScreenOnly) return lines;
    lines.push(...(await benchCharts(browser)));

    process.stderr.write('  seeding the large study…\n');
    const tSeed = performance.now();
    seedLargeStudy(large);
    const seedS = ((performance.now() - tSeed) / 1000).toFixed(1);
    const h = await startBenchHost(large);
    try {
      const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
      const t0 = performance.now();
      await page.goto(h.url);
      await page.locator('h1').first().waitFor();
      lines.push(
        `first screen with ${LARGE_STUDY.participants.toLocaleString('en')} participants and ${LARGE_STUDY.recordings.toLocaleString('en')} recordings (seeded in ${seedS} s): host ready ${h.readyMs.toFixed(0)} ms, page ${(performance.now() - t0).toFixed(0)} ms`,
      );

      process.stderr.write('  IPC round trips…\n');
      // 2. IPC round trips from the page.
      const small = await roundTrips(page, 'app.info', {}, 500);
      const parts = await roundTrips(
        page,
        'participants.page',
        { studyId: 1, sort: 'code', dir: 'asc', offset: 5000, limit: 100 },
        100,
      );
      const recs = await roundTrips(
        page,
        'recordings.page',
        { studyId: 1, sort: 'recorded_at', dir: 'desc', offset: 50_000, limit: 100 },
        100,
      );
      lines.push(
        'IPC round trip over the bridge (page → WebSocket → router, input and output checked → page):',
      );
      lines.push(
        `  app.info: p50 ${median(small).toFixed(2)} ms, p99 ${pct(small, 0.99).toFixed(2)} ms (500 calls)`,
      );
      lines.push(
        `  participants.page, 100 rows at row 5,000 of 10,000: p50 ${median(parts).toFixed(1)} ms, p99 ${pct(parts, 0.99).toFixed(1)} ms (100 calls)`,
      );
      lines.push(
        `  recordings.page, 100 rows at row 50,000 of 100,000: p50 ${median(recs).toFixed(1)} ms, p99 ${pct(recs, 0.99).toFixed(1)} ms (100 calls)`,
      );

      // 3. The two large tables.
      for (const [name, hash, deepRow, searches] of [
        [
          'participants table (10,000)',
          '#/studies/1/participants',
          5_000,
          [
            ['P-07777', 'P-07777'],
            ['P-0004', 'P-0004'],
            ['P-09999', 'P-09999'],
          ],
        ],
        [
          'recordings table (100,000)',
          '#/studies/1/recordings',
          50_000,
          [
            ['P-04321', 'P-04321'],
            ['_4321.wav', '4321.wav'],
            ['P-00042', 'P-00042'],
          ],
        ],
      ] as const) {
        process.stderr.write(`  ${name}…\n`);
        const t1 = performance.now();
        await page.evaluate(`location.hash = ${JSON.stringify(hash)}`);
        await page.locator('.grid-row').first().waitFor({ timeout: 30_000 });
        const first = performance.now() - t1;
        await page.waitForTimeout(500);
        const s = await scrollFps(page, 3000);
        await page.waitForTimeout(300);
        const jump = await jumpSettles(page, deepRow);
        await page.evaluate(`document.querySelector('.grid').scrollTop = 0`);
        const typed: number[] = [];
        for (const [text, want] of searches) {
          await clearSearch(page);
          process.stderr.write(`  ${name}: searching "${text}"…\n`);
          typed.push(await searchTime(page, text, want));
        }
        await clearSearch(page);
        lines.push(
          `${name}: first rows ${first.toFixed(0)} ms; scrolling a screen per frame for 3 s ${s.fps.toFixed(1)} frames/s (${s.long} of ${s.frames} frames over 50 ms); jump to row ${deepRow.toLocaleString('en')}: rows filled in ${jump.toFixed(0)} ms; search to first matching row: median ${median(typed).toFixed(0)} ms with the ${DEBOUNCE_MS} ms debounce, ${(median(typed) - DEBOUNCE_MS).toFixed(0)} ms without (${typed.map((x) => x.toFixed(0)).join(', ')})`,
        );
      }
      await page.close();
    } finally {
      await stop(h.child);
    }
  } finally {
    await browser.close();
    rmSync(empty, { recursive: true, force: true });
    rmSync(emptyOld, { recursive: true, force: true });
    rmSync(baselineTree, { recursive: true, force: true });
    rmSync(large, { recursive: true, force: true });
  }
  return lines;
};

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('charts')) {
    const browser = await chromium.launch({
      executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    });
    try {
      for (const l of await benchCharts(browser)) console.log(l);
    } finally {
      await browser.close();
    }
  } else
    for (const l of await benchUi({ firstScreenOnly: process.argv.includes('first-screen') })) console.log(l);
}
