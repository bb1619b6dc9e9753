/**
 * The recordings table and a batch's file table in the window (browser mode, Debian's Chromium) on a
 * study of 100,000 recordings: time to the first rows, frames per second while scrolling a screen per
 * frame, time until a jump to the middle shows its rows, and time from typing a search to the first
 * matching row (the 250 ms debounce included). Browser-side code is passed as strings: tsx's name
 * helpers do not exist in the page. Run alone: `npx tsx test/bench/recordings-table.bench.ts`.
 */
import { chromium } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedLargeStudy } from '../support/large-study';
const ROOT = join(import.meta.dirname, '..', '..');
execFileSync(process.execPath, [join(ROOT, 'scripts/build.mjs')], { stdio: 'ignore' });
const home = mkdtempSync(join(tmpdir(), 'vs-scroll-'));
const t0 = performance.now();
seedLargeStudy(home, { participants: 10_000, recordings: 100_000 });
console.log(`seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
const child = spawn(process.execPath, ['--import', 'tsx/esm', join(ROOT, 'main/node-host.ts'), '--home', home, '--no-open'], { cwd: ROOT, env: { ...process.env, CI: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
let out = '';
const url = await new Promise<string>((res, rej) => { child.stdout!.on('data', (d) => { out += d; const m = /BRIDGE_READY (\S+)/.exec(out); if (m) res(m[1]!); }); child.stderr!.on('data', (d) => { out += d; }); child.on('exit', () => rej(new Error(out))); });
const browser = await chromium.launch({ executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
  await page.goto(url);
  await page.locator('h1').first().waitFor();
  for (const hash of ['#/studies/1/recordings', '#/studies/1/batches/1']) {
    await page.evaluate(`location.hash = ${JSON.stringify(hash)}`);
    const t1 = performance.now();
    await page.locator('.grid-row').first().waitFor({ timeout: 30_000 });
    const first = performance.now() - t1;
    await page.waitForTimeout(500);
    const r = await page.evaluate(`new Promise((done) => {
      const body = document.querySelector('.grid-body');
      let frames = 0, long = 0, last = performance.now(); const start = last;
      const step = (t) => { frames++; if (t - last > 50) long++; last = t;
        body.scrollTop = (body.scrollTop + body.clientHeight) % Math.max(1, body.scrollHeight - body.clientHeight);
        if (t - start < 3000) requestAnimationFrame(step); else done({ fps: frames / ((performance.now() - start) / 1000), long, frames }); };
      requestAnimationFrame(step);
    })`) as { fps: number; long: number; frames: number };
    // Rows drawn after scrolling stops: how long until the page in view has its data (no skeletons).
    await page.evaluate(`document.querySelector('.grid-body').scrollTop = 2_000_000`);
    const t2 = performance.now();
    // (The page's CSP forbids waitForFunction's eval; evaluate runs outside it.)
    while ((await page.evaluate(`document.querySelectorAll('.grid-row .skeleton').length`)) as number > 0) await page.waitForTimeout(10);
    const settle = performance.now() - t2;
    await page.evaluate(`document.querySelector('.grid-body').scrollTop = 0`);
    await page.waitForTimeout(300);
    // Timed in the page (a MutationObserver), not by Playwright's polling, which waits up to 500 ms between looks.
    const search = (q: string, want: string | null) => page.evaluate(`new Promise((done) => {
      const box = document.querySelector('input[type=search]');
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
      const want = ${JSON.stringify(want)};
      const t0 = performance.now();
      const check = () => {
        const row = document.querySelector('.grid-row');
        if (want ? row && row.textContent.includes(want) && !row.querySelector('.skeleton') : document.querySelector('.grid-empty')) { obs.disconnect(); done(performance.now() - t0); }
      };
      const obs = new MutationObserver(check);
      obs.observe(document.body, { subtree: true, childList: true, characterData: true });
      setValue.call(box, ${JSON.stringify(q)});
      box.dispatchEvent(new Event('input', { bubbles: true }));
    })`) as Promise<number>;
    const searches: number[] = [];
    for (const [q, want] of [['P-04321', 'P-04321'], ['week-7', 'week-7'], ['P-00042', 'P-00042'], ['nothing-here', null]] as const) {
      await page.getByRole('searchbox').first().fill('');
      await page.waitForTimeout(600);
      searches.push(await search(q, want));
    }
    console.log(`${hash}: first rows ${first.toFixed(0)} ms; scrolling a screen per frame for 3 s: ${r.fps.toFixed(1)} frames/s (${r.long} of ${r.frames} over 50 ms); jump to row ~50,000: rows filled in ${settle.toFixed(0)} ms; search to first match (250 ms debounce included): ${searches.map((x) => x.toFixed(0)).join(', ')} ms`);
    await page.getByRole('searchbox').first().fill('');
    await page.waitForTimeout(400);
  }
} finally {
  await browser.close();
  child.kill('SIGTERM');
  rmSync(home, { recursive: true, force: true });
}
