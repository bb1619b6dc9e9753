/**
 * Where the first screen's time goes: one host on an empty workspace, five fresh browser
 * contexts, and in each page the Navigation and Resource Timing entries, the WebSocket's open and each
 * call's send and answer (a wrapper installed before the page's scripts), the first script evaluated,
 * and the first heading drawn (a MutationObserver), all on the page's clock (ms since navigation start).
 * Run alone: `npx tsx test/bench/first-screen-breakdown.ts` (RENDERER_DIR=<dir> to load another build).
 *
 * TRACE=1: each load without the init script (which itself costs the page ~150 ms before its first
 * request) and with a Chromium trace instead, printed as the renderer's main thread in order from the
 * navigation's start: the document's and each file's request and arrival, parsing, style, layout,
 * scripts' compile and run, paints and the first contentful paint, and the first frame's commit.
 */
import { chromium } from '@playwright/test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_ARGS } from '../../playwright.config';
import { startBenchHost } from './bench-host';
import { printProfileTotals, type CpuProfile } from './cpu-profile';

const INIT = `(() => {
  const t = (window.__fs = { ws: [], calls: {}, h1: null });
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...a) {
      super(...a);
      t.ws.push({ created: performance.now() });
      this.addEventListener('open', () => { t.ws[t.ws.length - 1].open = performance.now(); });
      this.addEventListener('message', (e) => {
        try { const m = JSON.parse(e.data); if (m.id !== undefined && t.calls[m.id]) t.calls[m.id].answered = performance.now(); } catch {}
      });
    }
    send(d) {
      try { const m = JSON.parse(d); t.calls[m.id] = { method: m.method, sent: performance.now() }; } catch {}
      return super.send(d);
    }
  };
  new MutationObserver((_, obs) => {
    if (document.querySelector('h1')) { t.h1 = performance.now(); t.h1Text = document.querySelector('h1').textContent; obs.disconnect(); }
  }).observe(document, { subtree: true, childList: true });
})()`;

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: Record<string, unknown>; beginData?: Record<string, unknown> };
}

/** The trace's steps on the page's main thread (over 1 ms) and its network and paint marks, in order. */
const printTrace = (events: TraceEvent[]) => {
  const main = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  // The page's renderer: the one whose main thread asked for the document.
  const doc = events.find(
    (e) => e.name === 'ResourceSendRequest' && /[?&]token=/.test(String(e.args?.data?.['url'] ?? '')),
  );
  const t0 =
    events.find((e) => e.name === 'navigationStart' && (!doc || e.ts <= doc.ts + 1))?.ts ?? doc?.ts ?? 0;
  const renderer = main.find((m) => events.some((e) => e.pid === m.pid && e.name === 'ParseHTML'));
  if (!renderer) return;
  const at = (ts: number) => ((ts - t0) / 1000).toFixed(1).padStart(7);
  const urls = new Map<string, string>();
  const lines: [number, string][] = [];
  for (const e of events) {
    const d = e.args?.data ?? {};
    const file = (u: unknown) => String(u).split('/').pop()!.split('?')[0] || 'index.html';
    if (e.name === 'ResourceSendRequest') {
      urls.set(String(d['requestId']), file(d['url']));
      lines.push([e.ts, `request ${file(d['url'])}${d['priority'] ? ` (${String(d['priority'])})` : ''}`]);
    } else if (e.name === 'ResourceReceiveResponse')
      lines.push([e.ts, `response ${urls.get(String(d['requestId'])) ?? '?'}`]);
    else if (e.name === 'ResourceFinish')
      lines.push([
        e.ts,
        `finished ${urls.get(String(d['requestId'])) ?? '?'} (${String(d['encodedDataLength'] ?? '?')} bytes)`,
      ]);
    else if (e.name === 'firstContentfulPaint' || e.name === 'firstPaint' || e.name === 'MarkDOMContent')
      lines.push([e.ts, `** ${e.name}`]);
    else if (
      e.pid === renderer.pid &&
      e.tid === renderer.tid &&
      e.ph === 'X' &&
      (e.dur ?? 0) >= 1000 &&
      !/^(ThreadControllerImpl::RunTask|RunTask|ThreadPool_RunTask)$/.test(e.name)
    ) {
      const what =
        (d['url'] ? ` ${file(d['url'])}` : '') +
        (e.args?.beginData?.['url'] ? ` ${file(e.args.beginData['url'])}` : '') +
        (e.args?.beginData?.['startLine'] !== undefined
          ? ` from line ${String(e.args.beginData['startLine'])}`
          : '');
      lines.push([e.ts, `  ${e.name}${what} +${((e.dur ?? 0) / 1000).toFixed(1)} ms`]);
    }
  }
  for (const [ts, l] of lines.sort((a, b) => a[0] - b[0])) if (ts >= t0) console.log(`  ${at(ts)}  ${l}`);
};

const main = async () => {
  const home = mkdtempSync(join(tmpdir(), 'vs-fs-breakdown-'));
  const { child, url } = await startBenchHost(home, process.env['RENDERER_DIR']);
  const browser = await chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  try {
    for (let i = 0; i < Number(process.env['LOADS'] ?? 5); i++) {
      const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
      const trace = Boolean(process.env['TRACE']);
      if (!trace) await page.addInitScript(INIT);
      if (trace)
        await browser.startTracing(page, {
          categories: [
            'devtools.timeline',
            'disabled-by-default-devtools.timeline',
            'blink',
            'loading',
            'blink.user_timing',
            'v8',
            'netlog',
          ],
        });
      const cdp = process.env['PROFILE'] ? await page.context().newCDPSession(page) : null;
      if (cdp) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
        await cdp.send('Profiler.start');
      }
      const t0 = performance.now();
      await page.goto(url);
      await page.locator('h1').first().waitFor();
      const wall = performance.now() - t0;
      if (trace) {
        await page.waitForTimeout(1500);
        const raw = (await browser.stopTracing()).toString();
        if (process.env['TRACE_FILE']) writeFileSync(`${process.env['TRACE_FILE']}.${i + 1}.json`, raw);
        printTrace((JSON.parse(raw) as { traceEvents: TraceEvent[] }).traceEvents);
        console.log(`load ${i + 1}: wall ${wall.toFixed(0)} ms`);
        await page.close();
        continue;
      }
      if (cdp) {
        const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
        printProfileTotals(profile, { functions: 25, totals: 40, withColumn: true });
      }
      const r = (await page.evaluate(`(() => {
        const nav = performance.getEntriesByType('navigation')[0];
        const res = performance.getEntriesByType('resource').map((e) => ({ name: e.name.split('/').pop().split('?')[0], start: e.startTime, end: e.responseEnd, size: e.encodedBodySize }));
        const paint = performance.getEntriesByType('paint').map((e) => [e.name, e.startTime]);
        return { nav: { responseEnd: nav.responseEnd, domInteractive: nav.domInteractive, domContentLoaded: nav.domContentLoadedEventEnd, load: nav.loadEventEnd }, res, paint, fs: window.__fs };
      })()`)) as {
        nav: Record<string, number>;
        res: { name: string; start: number; end: number; size: number }[];
        paint: [string, number][];
        fs: {
          ws: { created: number; open?: number }[];
          calls: Record<string, { method: string; sent: number; answered?: number }>;
          h1: number;
          h1Text: string;
        };
      };
      const f = (x: number | undefined) => (x === undefined ? '-' : x.toFixed(0));
      console.log(`load ${i + 1}: wall ${wall.toFixed(0)} ms; first h1 "${r.fs.h1Text}" at ${f(r.fs.h1)} ms`);
      console.log(
        `  html responseEnd ${f(r.nav['responseEnd'])}, domInteractive ${f(r.nav['domInteractive'])}, DOMContentLoaded ${f(r.nav['domContentLoaded'])}, load ${f(r.nav['load'])}; ${r.paint.map(([n, t]) => `${n} ${f(t)}`).join(', ')}`,
      );
      for (const e of r.res)
        console.log(`  ${e.name}: ${f(e.start)}-${f(e.end)} (${(e.size / 1024).toFixed(0)} KiB)`);
      for (const w of r.fs.ws) console.log(`  websocket: created ${f(w.created)}, open ${f(w.open)}`);
      for (const [id, c] of Object.entries(r.fs.calls))
        console.log(`  call ${id} ${c.method}: sent ${f(c.sent)}, answered ${f(c.answered)}`);
      await page.close();
    }
  } finally {
    await browser.close();
    child.kill('SIGTERM');
    rmSync(home, { recursive: true, force: true });
  }
};
await main();
