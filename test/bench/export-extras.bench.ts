/**
 * What the files for statistics packages cost: the export of a 100,000-recording study (every form, all
 * four analysis types completed) with the CSVs alone and with all three of load.sps, load.do and
 * study.xlsx: wall and CPU time, peak RSS and the size of each file, against the targets of at most
 * 200 MB and at most 1.5 times the CSVs' time. Peak RSS is the kernel's high-water mark of the whole
 * child process, not the export's growth: Node, the modules and the opened database are in it (the
 * child's resident set before the export starts is printed beside it). Each export runs in a child
 * process of its own, the two kinds taking turns (a run: the CSVs alone, then every extra), so a change
 * in the machine's load falls on both; the verdict is the median of the runs' own ratios, as the
 * project measures every target against its reference in the same run. The
 * child (export-extras-child.ts) runs as what ships: an esbuild bundle built as scripts/build.mjs builds
 * the main process, into out/bench/; the resident set of the same child run from the TypeScript
 * sources through tsx (whose loader thread the product does not have) is printed for comparison. `npm run bench -- export-extras`, or alone with
 * `npx tsx test/bench/export-extras.bench.ts` (VS_BENCH_EXPORT_RECORDINGS, VS_BENCH_EXPORT_REPEAT to
 * change the size and the runs of each).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildNodeBundles } from '../../scripts/node-bundles.mjs';
import { EXTRA_FILE, type ExportExtra } from '../../shared/export';
import type { ChildResult } from './export-extras-child';
import { seedBigStudy } from './export.bench';

const RECORDINGS = Number(process.env['VS_BENCH_EXPORT_RECORDINGS'] ?? 100_000);
const REPEAT = Number(process.env['VS_BENCH_EXPORT_REPEAT'] ?? 5);
const TARGET_MB = 200;
const here = dirname(fileURLToPath(import.meta.url));
const CHILD_SOURCE = join(here, 'export-extras-child.ts');
const BUNDLE_DIR = join(here, '..', '..', 'out', 'bench');
/** Beside the worktree's node_modules, so the bundle finds better-sqlite3 as the app's does. */
const CHILD_BUNDLE = join(BUNDLE_DIR, 'export-extras-child.cjs');

/** The child as the product ships its main process: one CommonJS bundle. */
const bundleChild = async (): Promise<void> => {
  await buildNodeBundles({ 'export-extras-child': CHILD_SOURCE }, BUNDLE_DIR);
};

type ChildKind = 'bundle' | 'tsx';

const runChild = (
  kind: ChildKind,
  dbPath: string,
  outDir: string,
  extras: ExportExtra[],
  baseOnly = false,
): Promise<ChildResult> =>
  new Promise((resolve, reject) => {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href;
    const script = kind === 'bundle' ? [CHILD_BUNDLE] : ['--import', tsx, CHILD_SOURCE];
    const args = [...script, dbPath, outDir, extras.join(','), ...(baseOnly ? ['--base-only'] : [])];
    const c = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    c.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    c.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('RESULT '));
      if (code !== 0 || !line) reject(new Error(`export child (${kind}) exited with ${code}`));
      else resolve(JSON.parse(line.slice(7)) as ChildResult);
    });
  });

/** What each way of running the child holds before the export starts (median of three). */
const preExportMemory = async (dbPath: string, dir: string): Promise<string> => {
  const base = async (kind: ChildKind): Promise<number> => {
    const xs: number[] = [];
    for (let i = 0; i < 3; i++) xs.push((await runChild(kind, dbPath, dir, [], true)).baseMb);
    return xs.sort((a, b) => a - b)[1]!;
  };
  const bundle = await base('bundle');
  const tsx = await base('tsx');
  return `  before the export (modules loaded, study opened): bundle ${bundle.toFixed(0)} MB (what is measured below), the sources through tsx ${tsx.toFixed(0)} MB`;
};

export const benchExportExtras = async (): Promise<string[]> => {
  const dir = mkdtempSync(join(tmpdir(), 'vs-extrasbench-'));
  try {
    const dbPath = join(dir, 'study.sqlite');
    seedBigStudy(dbPath, RECORDINGS);
    await bundleChild();
    const lines = [
      `study: ${RECORDINGS.toLocaleString('en')} recordings, every form (long, wide, summary); median of ${REPEAT} run(s) [range]`,
      `  machine: ${cpus().length} cores, load average ${loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')} before the exports; each export in a child process of its own, the two kinds in turn`,
      `  the child runs as the product ships: an esbuild bundle (scripts/node-bundles.mjs), not the sources through tsx`,
      await preExportMemory(dbPath, dir),
    ];
    const runs: ExportExtra[][] = [[], ['spss', 'stata', 'xlsx']];
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const medians: { wall: number; cpu: number; peak: number; base: number }[] = [];
    const results: ChildResult[][] = runs.map(() => []);
    for (let i = 0; i < REPEAT; i++)
      for (const [k, extras] of runs.entries()) {
        results[k]!.push(await runChild('bundle', dbPath, dir, extras));
        rmSync(join(dir, extras.join('-') || 'none'), { recursive: true, force: true });
      }
    for (const [k, extras] of runs.entries()) {
      const rs = results[k]!;
      const wall = rs.map((r) => r.seconds);
      const peaks = rs.map((r) => r.peakMb);
      const m = {
        wall: median(wall),
        cpu: median(rs.map((r) => r.cpuSeconds)),
        peak: median(peaks),
        base: median(rs.map((r) => r.baseMb)),
      };
      medians.push(m);
      const sizes = extras.map(
        (x) => `${EXTRA_FILE[x]} ${(rs[0]!.files[EXTRA_FILE[x]]! / 1e6).toFixed(2)} MB`,
      );
      lines.push(
        `  ${(extras.join(' + ') || 'CSVs only').padEnd(20)} ${m.wall.toFixed(1).padStart(5)} s [${Math.min(...wall).toFixed(1)}–${Math.max(...wall).toFixed(1)}] (CPU ${m.cpu.toFixed(1)} s), peak RSS ${m.peak.toFixed(0)} MB [${Math.min(...peaks).toFixed(0)}–${Math.max(...peaks).toFixed(0)}] of which ${m.base.toFixed(0)} MB before the export, CSVs ${(rs[0]!.csvBytes / 1e6).toFixed(1)} MB${sizes.length ? `, ${sizes.join(', ')}` : ''}`,
      );
    }
    const [csv, all] = medians as [(typeof medians)[number], (typeof medians)[number]];
    // Each run's ratio against the CSVs exported just before it: this machine's speed drifts by a
    // quarter within minutes, which a ratio of the two kinds' medians takes in and a run's own ratio does not.
    const runRatios = (key: 'seconds' | 'cpuSeconds'): number[] =>
      results[1]!.map((r, i) => r[key] / results[0]![i]![key]);
    const wallRatios = runRatios('seconds');
    const cpuRatios = runRatios('cpuSeconds');
    lines.push(
      `  each run's extras against its CSVs alone: ${wallRatios.map((x) => x.toFixed(2)).join(', ')} (wall)`,
      `  every extra against the CSVs alone, median of the runs' ratios: ${median(wallRatios).toFixed(2)}x wall, ${median(cpuRatios).toFixed(2)}x CPU (target at most 1.5x); ratio of the medians: ${(all.wall / csv.wall).toFixed(2)}x wall, ${(all.cpu / csv.cpu).toFixed(2)}x CPU; peak RSS ${all.peak.toFixed(0)} MB, highest ${Math.max(...results[1]!.map((r) => r.peakMb)).toFixed(0)} MB (target at most ${TARGET_MB} MB)`,
    );
    return lines;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1])
  for (const l of await benchExportExtras()) console.log(l);
