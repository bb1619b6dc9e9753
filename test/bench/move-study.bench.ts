/**
 * Moving a large study into PostgreSQL and back: `importStudy` of a seeded single-user study (every
 * measure of every analysis type for each recording, seedBigStudy) into a throwaway PostgreSQL 15
 * cluster, then `exportStudy` to a new SQLite file; wall and CPU time of each, with the rows copied.
 * `npm run bench -- move-study`, or alone `npx tsx test/bench/move-study.bench.ts`
 * (VS_BENCH_MOVE_RECORDINGS sets the study's size, default 5,000).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectPostgres } from '../../main/db/store/connect';
import { migratePostgres } from '../../main/db/store/migrate-store';
import { exportStudy, importStudy, type StudyMove } from '../../main/services/team-move';
import { startPostgresCluster } from '../support/postgres-cluster';
import { hasTool } from '../support/reference-tools';
import { seedBigStudy } from './export.bench';

const RECORDINGS = Number(process.env['VS_BENCH_MOVE_RECORDINGS'] ?? 5_000);

const timed = async (label: string, fn: () => Promise<StudyMove>): Promise<string> => {
  const t = performance.now();
  const cpu = process.cpuUsage();
  const move = await fn();
  const used = process.cpuUsage(cpu);
  const rows = move.counts.reduce((n, c) => n + c.after, 0);
  return `${label}: ${((performance.now() - t) / 1000).toFixed(1)} s wall, ${((used.user + used.system) / 1e6).toFixed(1)} s CPU, ${rows} rows, complete ${move.complete}`;
};

export const benchMoveStudy = async (): Promise<string[]> => {
  if (!hasTool('postgresql-15')) return ['PostgreSQL 15 is not installed: apt-get install postgresql-15'];
  const dir = mkdtempSync(join(tmpdir(), 'vs-bench-move-'));
  const cluster = await startPostgresCluster();
  try {
    const file = join(dir, 'voicescope.sqlite');
    seedBigStudy(file, RECORDINGS);
    const connected = await connectPostgres(cluster.address, cluster.password);
    if (!connected.ok) throw new Error(connected.error.message);
    const store = connected.value;
    await migratePostgres(store);
    const lines = [
      `${RECORDINGS} recordings; load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    ];
    const must = async (r: ReturnType<typeof importStudy>) => {
      const v = await r;
      if (!v.ok) throw new Error(v.error.message);
      return v.value;
    };
    lines.push(await timed('import-study', () => must(importStudy(store, file, 'Bench study'))));
    lines.push(
      await timed('export-study', () => must(exportStudy(store, 'Bench study', join(dir, 'back.sqlite')))),
    );
    await store.close();
    return lines;
  } finally {
    cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
};

if (import.meta.url === `file://${process.argv[1]}`) for (const l of await benchMoveStudy()) console.log(l);
