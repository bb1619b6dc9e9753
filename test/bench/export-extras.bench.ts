/**
 * What the files for statistics packages cost: the export of a 100,000-recording study (every form, all
 * four analysis types completed) with the CSVs alone and with all three of load.sps, load.do and
 * study.xlsx: wall and CPU time, peak RSS and the size of each file, against the targets of at most
 * 200 MB and at most 1.5 times the CSVs' time. Peak RSS is the kernel's high-water mark of the whole
 * child process, not the export's growth: Node, tsx's loader thread, the modules and the opened
 * database are in it (the child's resident set before the export starts is printed beside it). Each
 * export runs in a child process of its own, the two kinds taking turns, so a change in the machine's
 * load falls on both. `npm run bench -- export-extras`, or alone with
 * `npx tsx test/bench/export-extras.bench.ts` (VS_BENCH_EXPORT_RECORDINGS, VS_BENCH_EXPORT_REPEAT to
 * change the size and the runs of each).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { EXTRA_FILE, type ExportExtra } from '../../shared/export';
import { openStudyDb } from '../../main/db/open';
import { runExport } from '../../main/export/run-export';
import { sqliteStore } from '../../main/db/store/sqlite-store';
import { seedBigStudy } from './export.bench';

const RECORDINGS = Number(process.env['VS_BENCH_EXPORT_RECORDINGS'] ?? 100_000);
const REPEAT = Number(process.env['VS_BENCH_EXPORT_REPEAT'] ?? 3);
const TARGET_MB = 200;

interface ChildResult {
  seconds: number;
  cpuSeconds: number;
  peakMb: number;
  /** Resident set of the child before the export starts (Node, tsx, the modules, the opened database). */
  baseMb: number;
  csvBytes: number;
  files: Record<string, number>;
}

const child = async (dbPath: string, outDir: string, extras: ExportExtra[]): Promise<void> => {
  const { db } = openStudyDb(dbPath);
  const baseMb = process.memoryUsage().rss / 1024 / 1024;
  const t = performance.now();
  const cpu0 = process.cpuUsage();
  const r = await runExport(
    { store: sqliteStore(db), db },
    { studyId: 1, timeZone: 'Europe/Berlin', extras },
    { outDir, folderName: extras.join('-') || 'none', appVersion: 'bench' },
  );
  const seconds = (performance.now() - t) / 1000;
  const cpu = process.cpuUsage(cpu0);
  db.close();
  if (!r.ok) throw new Error(r.error.message);
  const out: ChildResult = {
    seconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    peakMb: process.resourceUsage().maxRSS / 1024,
    baseMb,
    csvBytes: r.value.files.filter((f) => f.name.endsWith('.csv')).reduce((n, f) => n + f.bytes, 0),
    files: Object.fromEntries(r.value.files.map((f) => [f.name, f.bytes])),
  };
  process.stdout.write(`RESULT ${JSON.stringify(out)}\n`);
};

const runChild = (dbPath: string, outDir: string, extras: ExportExtra[]): Promise<ChildResult> =>
  new Promise((resolve, reject) => {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href;
    const c = spawn(
      process.execPath,
      ['--import', tsx, fileURLToPath(import.meta.url), '--extras-child', dbPath, outDir, extras.join(',')],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    c.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    c.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('RESULT '));
      if (code !== 0 || !line) reject(new Error(`export child exited with ${code}`));
      else resolve(JSON.parse(line.slice(7)) as ChildResult);
    });
  });

export const benchExportExtras = async (): Promise<string[]> => {
  const dir = mkdtempSync(join(tmpdir(), 'vs-extrasbench-'));
  try {
    const dbPath = join(dir, 'study.sqlite');
    seedBigStudy(dbPath, RECORDINGS);
    const lines = [
      `study: ${RECORDINGS.toLocaleString('en')} recordings, every form (long, wide, summary); median of ${REPEAT} run(s) [range]`,
      `  machine: ${cpus().length} cores, load average ${loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')} before the exports; each export in a child process of its own, the two kinds in turn`,
    ];
    const runs: ExportExtra[][] = [[], ['spss', 'stata', 'xlsx']];
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const medians: { wall: number; cpu: number; peak: number; base: number }[] = [];
    const results: ChildResult[][] = runs.map(() => []);
    for (let i = 0; i < REPEAT; i++)
      for (const [k, extras] of runs.entries()) {
        results[k]!.push(await runChild(dbPath, dir, extras));
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
    lines.push(
      `  every extra against the CSVs alone: ${(all.wall / csv.wall).toFixed(2)}x wall, ${(all.cpu / csv.cpu).toFixed(2)}x CPU (target at most 1.5x); peak RSS ${all.peak.toFixed(0)} MB (target at most ${TARGET_MB} MB)`,
    );
    return lines;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

const argv = process.argv.slice(2);
if (argv[0] === '--extras-child') {
  await child(argv[1]!, argv[2]!, (argv[3] ?? '').split(',').filter(Boolean) as ExportExtra[]);
} else if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const l of await benchExportExtras()) console.log(l);
}
