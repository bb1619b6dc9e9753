/**
 * Where a 200-session participant's chart time goes: the page opened with the participant
 * screen's code warm (the first screen drawn, then idle), then the participant's address set, and on the
 * page's clock (ms since the address was set): each call sent and answered (a WebSocket wrapper put in
 * before the page's scripts), the performance marks the page sets (`timeline:answer` when the timeline
 * answer is in the query cache, `timeline:charts-drawn` when the charts in view are drawn, and their
 * measure `timeline:answer→charts`), the first figure in the DOM and each chart's canvas drawn. With
 * PROFILE=1, a CPU profile of that span by script and by function, from a build of this tree not
 * minified (names kept) but otherwise the same as the window's.
 * Run alone: `npx tsx test/bench/charts-breakdown.ts` (LOADS=n, PROFILE=1, TRACE=1, WARM_MS=0,
 * UI_BENCH_CHARTS_RENDERER=<dir of another build>).
 */
import { chromium } from '@playwright/test';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { CHROMIUM_ARGS } from '../../playwright.config';
import { seedCohortStudy } from '../support/cohort-study';
import { startBenchHost } from './bench-host';
import { parentsOf, printProfileTotals, type CpuProfile } from './cpu-profile';

const ROOT = join(import.meta.dirname, '..', '..');

const INIT = `(() => {
  const t = (window.__cb = { calls: {}, t0: null });
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...a) {
      super(...a);
      this.addEventListener('message', (e) => {
        try { const m = JSON.parse(e.data); if (m.id !== undefined && t.calls[m.id]) { t.calls[m.id].answered = performance.now(); t.calls[m.id].bytes = String(e.data).length; if (t.calls[m.id].method === 'timeline.participant') performance.mark('probe:answer'); } } catch {}
      });
    }
    send(d) {
      try { const m = JSON.parse(d); t.calls[m.id] = { method: m.method, sent: performance.now() }; } catch {}
      return super.send(d);
    }
  };
})()`;

/** When a trace's event of this name (the probe's marks: `probe:answer`, `probe:drawn`) began, µs. */
const markAt = (t: Trace | null, name: string) => t?.traceEvents.find((e) => e.name === name)?.ts;

/** The profile's totals, then a timeline of it in 20 ms steps. */
const printProfile = (p: CpuProfile) => {
  printProfileTotals(p, { functions: 30, totals: 60 });
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = parentsOf(p);
  // A timeline in 20 ms steps: what each step's samples were doing, named by the first of these frames
  // found from the leaf up (the page's own steps before React's and the browser's).
  const NAMES = (
    process.env['STEPS'] ??
    'checkAnswer,parse,uPlot,_commit,drawSeries,TimelineChart2,Legend,Timeline,ParticipantPage,prepare,summaryOf,focus,getBoundingClientRect,check,commitRoot,flushPassiveEffects,renderRootSync,(garbage collector),(idle),(program)'
  ).split(',');
  let t = 0;
  const steps = new Map<number, Map<string, number>>();
  p.samples.forEach((id, i) => {
    t += (p.timeDeltas[i] ?? 0) / 1000;
    const dt = (p.timeDeltas[i + 1] ?? 0) / 1000;
    let name = 'other';
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const f = byId.get(cur)!.callFrame.functionName;
      if (NAMES.includes(f)) {
        name = f;
        break;
      }
    }
    const step = Math.floor(t / 20) * 20;
    const m = steps.get(step) ?? new Map<string, number>();
    m.set(name, (m.get(name) ?? 0) + dt);
    steps.set(step, m);
  });
  console.log('  by 20 ms step (profile clock):');
  for (const [step, m] of steps)
    console.log(
      `    ${String(step).padStart(5)}  ${[...m]
        .sort((a, b) => b[1] - a[1])
        .filter(([, v]) => v >= 1)
        .map(([k, v]) => `${k} ${v.toFixed(0)}`)
        .join(', ')}`,
    );
};

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** The thread's CPU time in the step, µs. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}
interface Trace {
  traceEvents: TraceEvent[];
}
/**
 * The renderer's main thread in a Chrome trace: the time of each kind of top-level task step (style,
 * layout, paint, script…), self time (children's durations taken off), and the longest steps in order.
 */
const printTrace = (t: Trace) => {
  const ev = t.traceEvents;
  const main = ev.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  if (!main) return;
  const mine = ev
    .filter((e) => e.ph === 'X' && e.pid === main.pid && e.tid === main.tid && e.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const self = new Map<string, number>();
  const stack: TraceEvent[] = [];
  const selfOf = new Map<TraceEvent, number>();
  for (const e of mine) {
    while (stack.length && stack.at(-1)!.ts + stack.at(-1)!.dur! <= e.ts) stack.pop();
    const parent = stack.at(-1);
    if (parent) selfOf.set(parent, (selfOf.get(parent) ?? parent.dur!) - e.dur!);
    selfOf.set(e, selfOf.get(e) ?? e.dur!);
    stack.push(e);
  }
  for (const [e, d] of selfOf) self.set(e.name, (self.get(e.name) ?? 0) + d / 1000);
  console.log(
    '  trace, renderer main thread, self time by step:\n' +
      [...self]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 20)
        .map(([k, v]) => `    ${v.toFixed(0).padStart(6)} ms  ${k}`)
        .join('\n'),
  );
  // From the timeline's answer to the charts in view drawn (the probe's own marks): the main thread's
  // wall time busy and its CPU time (tdur), the second much less inflated by a loaded machine.
  const [from, to] = [markAt(t, 'probe:answer'), markAt(t, 'probe:drawn')];
  if (from !== undefined && to !== undefined) {
    let wall = 0;
    let cpu = 0;
    let end = 0;
    for (const e of mine) {
      if (e.ts < end || e.ts < from || e.ts > to) continue;
      end = e.ts + e.dur!;
      wall += e.dur!;
      cpu += e.tdur ?? 0;
    }
    console.log(
      `  answer → charts in view drawn: ${((to - from) / 1000).toFixed(0)} ms; main thread busy ${(wall / 1000).toFixed(0)} ms, of which CPU ${(cpu / 1000).toFixed(0)} ms`,
    );
  }
  const t0 = mine[0]?.ts ?? 0;
  console.log(
    '  steps over 8 ms, in order (ms from the trace start):\n' +
      mine
        .filter((e) => e.dur! > 8000 && e.name !== 'ThreadControllerImpl::RunTask' && e.name !== 'RunTask')
        .map(
          (e) =>
            `    ${((e.ts - t0) / 1000).toFixed(0).padStart(6)} +${(e.dur! / 1000).toFixed(0)}  ${e.name}`,
        )
        .join('\n'),
  );
};

/** This tree's window, not minified (function names kept in the profile), beside the built page. */
const buildReadable = async (dir: string) => {
  await new Promise<void>((done, fail) => {
    const b = spawn(process.execPath, [join(ROOT, 'scripts/build.mjs'), '--out', dir], { stdio: 'ignore' });
    b.on('exit', (c) => (c === 0 ? done() : fail(new Error(`build exited ${c}`))));
  });
  const readable = join(dir, 'readable');
  mkdirSync(readable, { recursive: true });
  for (const f of ['index.html', 'app.css']) copyFileSync(join(dir, 'renderer', f), join(readable, f));
  await build({
    entryPoints: { app: join(ROOT, 'renderer/src/main.tsx') },
    absWorkingDir: ROOT,
    outdir: readable,
    bundle: true,
    format: 'esm',
    splitting: true,
    chunkNames: '[name]-[hash]',
    platform: 'browser',
    target: ['chrome120'],
    jsx: 'automatic',
    minify: false,
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    logLevel: 'warning',
  });
  return readable;
};

const main = async () => {
  const home = mkdtempSync(join(tmpdir(), 'vs-charts-breakdown-'));
  const out = mkdtempSync(join(tmpdir(), 'vs-charts-breakdown-build-'));
  const { studyId, participants } = seedCohortStudy(home, {
    participants: 0,
    sessions: 0,
    longSessions: 200,
    now: Date.UTC(2026, 5, 1),
  });
  const pid = participants.get('P-LONG')!;
  const profile = Boolean(process.env['PROFILE']);
  // UI_BENCH_CHARTS_RENDERER=<dir>: another build of the window (e.g. main's), as in ui.bench.ts.
  const other = process.env['UI_BENCH_CHARTS_RENDERER'];
  const { child, url } = await startBenchHost(home, profile ? await buildReadable(out) : other);
  const browser = await chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  try {
    for (let i = 0; i < Number(process.env['LOADS'] ?? 3); i++) {
      const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
      await page.addInitScript(INIT);
      await page.goto(url);
      await page.locator('h1').first().waitFor();
      // The other screens' code is fetched in idle time once a screen is drawn (WARM_MS=0: opened at once,
      // as the bench's 'open' figures do, the participant screen's code still to fetch).
      await page.waitForTimeout(Number(process.env['WARM_MS'] ?? 2500));
      const cdp = profile ? await page.context().newCDPSession(page) : null;
      if (cdp) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
        await cdp.send('Profiler.start');
      }
      if (process.env['TRACE'])
        await browser.startTracing(page, {
          categories: [
            'devtools.timeline',
            'disabled-by-default-devtools.timeline',
            'blink',
            'v8',
            'blink.user_timing',
          ],
        });
      const hash = `#/studies/${studyId}/participants/${pid}`;
      const r = (await page.evaluate(`new Promise((done) => {
        const t0 = performance.now();
        window.__cb.t0 = t0;
        const drawn = new Map();
        let figure = null;
        const inView = (c) => { const r = (c.closest('figure') ?? c).getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; };
        location.hash = ${JSON.stringify(hash)};
        const check = () => {
          const now = performance.now() - t0;
          if (figure === null && document.querySelector('.tgrid figure')) figure = now;
          const every = [...document.querySelectorAll('.tgrid .tchart-canvas')];
          for (const c of every) if (c.dataset.drawn !== undefined && !drawn.has(c.dataset.chart)) drawn.set(c.dataset.chart, now);
          const view = every.filter(inView);
          if (view.length > 0 && view.every((c) => c.dataset.drawn !== undefined))
            requestAnimationFrame(() => (performance.mark('probe:drawn'), done({ total: performance.now() - t0, figure, drawn: [...drawn], inView: view.length,
              marks: performance.getEntriesByType('mark').filter((m) => m.name.startsWith('timeline:') && m.startTime >= t0).map((m) => [m.name, m.startTime - t0]),
              measures: performance.getEntriesByType('measure').filter((m) => m.name.startsWith('timeline:') && m.startTime >= t0).map((m) => [m.name, m.duration]),
              calls: Object.values(window.__cb.calls).filter((c) => c.sent >= t0).map((c) => ({ ...c, sent: c.sent - t0, answered: c.answered - t0 })) })));
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
        setTimeout(() => done(null), 30000);
      })`)) as {
        total: number;
        figure: number | null;
        drawn: [string, number][];
        inView: number;
        marks: [string, number][];
        measures: [string, number][];
        calls: { method: string; sent: number; answered: number; bytes?: number }[];
      } | null;
      const trace = process.env['TRACE']
        ? (JSON.parse((await browser.stopTracing()).toString()) as Trace)
        : null;
      if (trace) printTrace(trace);
      if (cdp) {
        const { profile: p } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
        printProfile(p);
        // With TRACE=1 too: the same profile, only from the timeline's answer to the charts in view drawn.
        const [from, to] = [markAt(trace, 'probe:answer'), markAt(trace, 'probe:drawn')];
        if (from !== undefined && to !== undefined) {
          console.log(
            `  the profile from the answer to the charts in view drawn (${((to - from) / 1000).toFixed(0)} ms):`,
          );
          printProfileTotals(p, { functions: 40, totals: 40, within: { from, to } });
        }
      }
      const f = (x: number | null | undefined) => (x === null || x === undefined ? '-' : x.toFixed(0));
      if (!r) {
        console.log(`load ${i + 1}: the charts in view were not drawn within 30 s`);
      } else {
        console.log(
          `load ${i + 1} (load average ${loadavg()[0]!.toFixed(1)}): ${r.inView} charts in view drawn at ${f(r.total)} ms; first figure in the DOM at ${f(r.figure)} ms`,
        );
        const res = (await page.evaluate(
          `performance.getEntriesByType('resource').filter((e) => e.startTime >= window.__cb.t0 && e.name.endsWith('.js')).map((e) => [e.name.split('/').pop(), e.startTime - window.__cb.t0, e.responseEnd - window.__cb.t0])`,
        )) as [string, number, number][];
        for (const [n, a, b] of res) console.log(`  script ${n}: ${f(a)}-${f(b)} ms`);
        for (const c of r.calls)
          console.log(
            `  call ${c.method}: sent ${f(c.sent)}, answered ${f(c.answered)}${c.bytes ? ` (${c.bytes} bytes)` : ''}`,
          );
        for (const [n, t] of r.marks) console.log(`  mark ${n} at ${f(t)} ms`);
        for (const [n, d] of r.measures) console.log(`  measure ${n}: ${f(d)} ms`);
        console.log(`  charts drawn at: ${r.drawn.map(([k, t]) => `${k} ${f(t)}`).join(', ')}`);
      }
      await page.close();
    }
  } finally {
    await browser.close();
    child.kill('SIGTERM');
    rmSync(home, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  }
};
await main();
