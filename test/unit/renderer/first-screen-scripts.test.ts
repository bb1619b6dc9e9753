/**
 * The first screen's scripts: what the page announces is everything the first screen runs,
 * and none of it is zod (nor so the contract's schemas), whose start took a third of the time to the first
 * heading; they load after the first screen (renderer/src/lib/rpc/contract-checks.ts). A fresh build in
 * a temporary folder.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
let dir: string;
let announced: string[];
beforeAll(() => {
  const out = mkdtempSync(join(tmpdir(), 'vs-first-screen-'));
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--out', out], { stdio: 'pipe' });
  dir = join(out, 'renderer');
  announced = [
    'app.js',
    ...[...readFileSync(join(dir, 'index.html'), 'utf8').matchAll(/rel="modulepreload" href="([^"]+)"/g)].map(
      (m) => m[1]!,
    ),
  ];
}, 120_000);
afterAll(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

/** Every static import of a module of the build, by file name. */
const staticImports = (file: string) =>
  [
    ...readFileSync(join(dir, file), 'utf8').matchAll(
      /(?:^|[;}])import\s*(?:\{[^}]*\}\s*from\s*)?"\.\/([^"]+)"/g,
    ),
  ].map((m) => m[1]!);

describe("the first screen's scripts", () => {
  it('are all announced in the page: the entry, the window, the set-up and studies screens and all they import', () => {
    const names = announced.join(' ');
    expect(names).toMatch(/start-\w+\.js/);
    expect(names).toMatch(/FirstRun-\w+\.js/);
    expect(names).toMatch(/StudiesPage-\w+\.js/);
    for (const f of announced)
      for (const i of staticImports(f)) expect(announced, `${f} imports ${i}`).toContain(i);
  });

  it('hold no zod, which is in a chunk of its own with the contract checks', () => {
    // "invalid_type" is one of zod's issue codes, in its core.
    const zod = readdirSync(dir).filter(
      (f) => f.endsWith('.js') && readFileSync(join(dir, f), 'utf8').includes('"invalid_type"'),
    );
    expect(zod.length).toBeGreaterThan(0);
    expect(zod.filter((f) => announced.includes(f))).toEqual([]);
  });

  it("carry no compile hint, which the participant page's own scripts carry, uPlot's among them", () => {
    // V8 compiles a script whose first line is this comment whole as it arrives (scripts/build.mjs).
    const hinted = (f: string) =>
      readFileSync(join(dir, f), 'utf8').startsWith('//# allFunctionsCalledOnLoad\n');
    const scripts = readdirSync(dir).filter((f) => f.endsWith('.js'));
    const page = scripts.filter((f) => /^ParticipantPage-\w+\.js$/.test(f));
    expect(page).toHaveLength(1);
    expect(hinted(page[0]!)).toBe(true);
    const uplot = scripts.filter((f) => readFileSync(join(dir, f), 'utf8').includes('pxRatio'));
    expect(uplot.length).toBeGreaterThan(0);
    expect(uplot.filter((f) => !hinted(f))).toEqual([]);
    expect(announced.filter(hinted)).toEqual([]);
    const zod = scripts.filter((f) => readFileSync(join(dir, f), 'utf8').includes('"invalid_type"'));
    expect(zod.filter(hinted)).toEqual([]);
  });

  it('weigh under 350 KiB (the single script before the split was 1,010 KiB)', () => {
    const bytes = announced.reduce((n, f) => n + statSync(join(dir, f)).size, 0);
    expect(bytes / 1024).toBeLessThan(350);
  });
});
