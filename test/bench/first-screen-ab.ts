/**
 * The first screen of this tree beside another tree's, both served by their own hosts (so changes on the
 * host side count), and the bare <h1> page, loads alternating, each in a fresh browser context (issue
 * 16, round 7). Per page and load: the page's clock to the first heading (as ui.bench.ts), Navigation
 * Timing (fetch, request, response start and end, domInteractive, DOMContentLoaded), first contentful
 * paint, the stylesheet's Resource Timing, and, in a second fresh context, the window interactive.
 * BASELINE_DIR is a built checkout of the other tree with node_modules, e.g.
 *   git archive 300f601 | tar -x -C /tmp/vs-base && ln -s $PWD/node_modules /tmp/vs-base/ &&
 *   (cd /tmp/vs-base && node scripts/build.mjs)
 * Run: `BASELINE_DIR=/tmp/vs-base LOADS=8 npx tsx test/bench/first-screen-ab.ts` (this tree built first).
 */
import { chromium } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir, loadavg } from 'node:os';
import { basename, join } from 'node:path';
import { CHROMIUM_ARGS } from '../../playwright.config';
import { startBenchHost } from './bench-host';

const home = mkdtempSync(join(tmpdir(), 'vs-scratch-'));
const { child, url } = await startBenchHost(home);
/** One host per other tree (BASELINE_DIR, or several comma-separated), named by its folder. */
const BASES = (process.env['BASELINE_DIR'] ?? '/tmp/vs-base').split(',').filter(Boolean);
const bases = await Promise.all(
  BASES.map(async (dir) => ({
    name: basename(dir),
    ...(await startBenchHost(mkdtempSync(join(tmpdir(), 'vs-scratch-b-')), undefined, dir)),
  })),
);
const server = createServer((_, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end('<!doctype html><html lang="en"><title>floor</title><h1>Floor</h1></html>');
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const floor = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
console.log('load', loadavg()[0]);
const rows: Record<string, number[][]> = Object.fromEntries(
  ['app', ...bases.map((b) => b.name), 'floor'].map((n) => [n, [] as number[][]]),
);
for (let i = 0; i < Number(process.env['LOADS'] ?? 5); i++)
  for (const [name, u] of [
    ['app', url],
    ...bases.map((b) => [b.name, b.url] as const),
    ['floor', floor],
  ] as const) {
    const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    await page.goto(u, { waitUntil: 'commit' });
    const clock = (await (
      await page.waitForFunction(() => document.querySelector('h1') && performance.now(), undefined, {
        polling: 'raf',
        timeout: 60000,
      })
    ).jsonValue()) as number;
    await page.waitForTimeout(300);
    const r = (await page.evaluate(() => {
      const n = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1;
      const css = performance.getEntriesByType('resource').find((e) => e.name.endsWith('app.css')) as
        PerformanceResourceTiming | undefined;
      return [
        n.fetchStart,
        n.requestStart,
        n.responseStart,
        n.responseEnd,
        n.domInteractive,
        n.domContentLoadedEventEnd,
        fcp,
        css?.startTime ?? -1,
        css?.responseEnd ?? -1,
      ];
    })) as number[];
    await page.close();
    let inter = -1;
    if (name !== 'floor') {
      const p2 = await browser.newPage({ viewport: { width: 1360, height: 900 } });
      await p2.goto(u, { waitUntil: 'commit' });
      inter = (await (
        await p2.waitForFunction(
          () => {
            const h1 = document.querySelector('h1');
            return h1 && Object.keys(h1).some((k) => k.startsWith('__reactFiber')) && performance.now();
          },
          undefined,
          { polling: 'raf', timeout: 60000 },
        )
      ).jsonValue()) as number;
      await p2.close();
    }
    rows[name]!.push([clock, ...r, inter]);
  }
const cols = [
  'clock',
  'fetchStart',
  'requestStart',
  'responseStart',
  'responseEnd',
  'domInteractive',
  'DCL',
  'fcp',
  'css start',
  'css end',
  'interactive',
];
for (const [name, rs] of Object.entries(rows)) {
  console.log(name);
  for (let c = 0; c < cols.length; c++) {
    const xs = rs.map((r) => r[c]!).sort((a, b) => a - b);
    console.log(
      `  ${cols[c]!.padEnd(15)} median ${xs[Math.floor(xs.length / 2)]!.toFixed(0)}  (${rs.map((r) => r[c]!.toFixed(0)).join(', ')})`,
    );
  }
}
// Loads of the same round ran next to each other, under about the same load: each round's ratio to the
// first other tree's load (clock and first contentful paint), then the median of those ratios.
const ref = rows[bases[0]?.name ?? 'floor']!;
for (const [name, rs] of Object.entries(rows)) {
  const ratio = (c: number) => {
    const xs = rs.map((r, i) => r[c]! / ref[i]![c]!).sort((a, b) => a - b);
    return xs[Math.floor(xs.length / 2)]!.toFixed(2);
  };
  console.log(
    `${name} / ${bases[0]?.name ?? 'floor'}, median of the rounds' ratios: clock ${ratio(0)}, fcp ${ratio(7)}`,
  );
}
console.log('load', loadavg()[0]);
await browser.close();
child.kill('SIGTERM');
for (const b of bases) b.child.kill('SIGTERM');
server.close();
