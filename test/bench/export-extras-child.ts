/**
 * One export of the extras bench (test/bench/export-extras.bench.ts), in a process of its own: opens the
 * study, exports it with the extras given and prints `RESULT <json>` (times, peak and pre-export resident
 * set, file sizes). The bench runs it as an esbuild bundle, the way the product ships; with `--base-only`
 * it prints the resident set before the export and exits, so the bench can compare the bundle with the
 * TypeScript sources run through tsx.
 *   node export-extras-child.cjs <study.sqlite> <out dir> <extras, comma-separated> [--base-only]
 */
import { openStudyDb } from '../../main/db/open';
import { sqliteStore } from '../../main/db/store/sqlite-store';
import { runExport } from '../../main/export/run-export';
import type { ExportExtra } from '../../shared/export';

export interface ChildResult {
  seconds: number;
  cpuSeconds: number;
  peakMb: number;
  /** Resident set of the child before the export starts (Node, the modules, the opened database). */
  baseMb: number;
  csvBytes: number;
  files: Record<string, number>;
}

const exportOnce = async (
  dbPath: string,
  outDir: string,
  extras: ExportExtra[],
  baseOnly: boolean,
): Promise<ChildResult> => {
  const { db } = openStudyDb(dbPath);
  const baseMb = process.memoryUsage().rss / 1024 / 1024;
  if (baseOnly) {
    db.close();
    return { seconds: 0, cpuSeconds: 0, peakMb: baseMb, baseMb, csvBytes: 0, files: {} };
  }
  const t = performance.now();
  const cpu0 = process.cpuUsage();
  const r = await runExport(
    { store: sqliteStore(db) },
    { studyId: 1, timeZone: 'Europe/Berlin', extras },
    { outDir, folderName: extras.join('-') || 'none', appVersion: 'bench' },
  );
  const seconds = (performance.now() - t) / 1000;
  const cpu = process.cpuUsage(cpu0);
  db.close();
  if (!r.ok) throw new Error(r.error.message);
  return {
    seconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    peakMb: process.resourceUsage().maxRSS / 1024,
    baseMb,
    csvBytes: r.value.files.filter((f) => f.name.endsWith('.csv')).reduce((n, f) => n + f.bytes, 0),
    files: Object.fromEntries(r.value.files.map((f) => [f.name, f.bytes])),
  };
};

const [dbPath, outDir, extras, flag] = process.argv.slice(2);
// Not a top-level await: the bundle is CommonJS, as the product's main process is.
if (dbPath !== undefined && outDir !== undefined)
  void exportOnce(
    dbPath,
    outDir,
    (extras ?? '').split(',').filter(Boolean) as ExportExtra[],
    flag === '--base-only',
  ).then((out) => process.stdout.write(`RESULT ${JSON.stringify(out)}\n`));
