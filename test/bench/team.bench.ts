/**
 * Team studies on PostgreSQL 15 (issue 31): one study of 2,100 recordings sent to the sandbox and
 * analysed to the end, by three workstations of 700 each (each imported its own files, its own
 * participants) against one workstation doing all 2,100, in the same run. Each workstation is a process
 * of its own (test/support/workstation-child.ts: the engine with test-speed polling, a budget of 50
 * requests a second shared by the study's workstations). Measured: the wall time from the workstations'
 * start to the last one's end, the database server's processor time over it (every server process,
 * test/support/postgres-cluster.ts), the requests the service saw, and the claim's latency:
 * `claimNextUpload` timed in this process by three connections at once over the same 2,100 recordings
 * queued again. `VS_BENCH_TEAM_RECORDINGS` changes the study's size (a multiple of 60).
 *
 * `npm run bench -- team`, or `npx tsx test/bench/team.bench.ts`.
 */
import { cpSync, linkSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { claimNextUpload } from '../../main/db/repos/uploads.repo';
import { connectPostgres } from '../../main/db/store/connect';
import type { Store } from '../../main/db/store/types';
import { openChosenStudyService } from '../../main/services/open-study-service';
import { makeWav } from '../fixtures/audio';
import { createSandboxStudy, startLabSandbox } from '../support/lab-sandbox';
import { startPostgresCluster, type PostgresCluster } from '../support/postgres-cluster';
import { hasTool } from '../support/reference-tools';
import { spawnTs, waitForLine } from '../support/spawn';

const RECORDINGS = Number(process.env['VS_BENCH_TEAM_RECORDINGS'] ?? 2_100);
const DISTINCT = 20;
const CHILD = join(import.meta.dirname, '../support/workstation-child.ts');
const LEASE_SECONDS = 60;

interface Outcome {
  readonly workstations: number;
  readonly wallSeconds: number;
  readonly serverCpuSeconds: number;
  readonly requests: number;
  readonly uploads: number;
  readonly uploadedRows: number;
  readonly completedAnalyses: number;
  /** The study's tables with their indexes and TOAST once done (all of them, and the three largest), in bytes. */
  readonly dbBytes: number;
  readonly largest: readonly { table: string; bytes: number }[];
  readonly claimMs: readonly number[];
}

const connect = async (cluster: PostgresCluster): Promise<Store> => {
  const c = await connectPostgres(cluster.address, cluster.password);
  if (!c.ok) throw new Error(c.error.message);
  return c.value;
};

/** A workstation's files: DISTINCT recordings for each of its participants (the same audio, linked). */
const writeFiles = (dir: string, audio: string, station: number, count: number): string => {
  mkdirSync(dir, { recursive: true });
  const rows = ['file,participant,recorded_at'];
  for (let i = 0; i < count; i++) {
    const p = `W${station}-P${String(Math.floor(i / DISTINCT)).padStart(3, '0')}`;
    const k = i % DISTINCT;
    linkSync(join(audio, `a${k}.wav`), join(dir, `${p}-a${k}.wav`));
    const day = new Date(Date.UTC(2026, 0, 1) + k * 86_400_000).toISOString().slice(0, 10);
    rows.push(`${p}-a${k}.wav,${p},${day}T10:00:00Z`);
  }
  writeFileSync(join(dir, 'manifest.csv'), rows.join('\n'));
  return join(dir, 'manifest.csv');
};

/** Each workstation imports its own files into the one study, its batch started, nothing sent yet. */
const importAtEach = async (
  cluster: PostgresCluster,
  homes: readonly string[],
  manifests: readonly string[],
  sandbox: Awaited<ReturnType<typeof startLabSandbox>>,
): Promise<{ studyId: number; profileId: number }> => {
  let studyId = 0;
  let profileId = 0;
  for (const [i, home] of homes.entries()) {
    if (i > 0) cpSync(join(homes[0]!, 'keys'), join(home, 'keys'), { recursive: true });
    const opened = await openChosenStudyService({ workspaceDir: home }, cluster.url(i === 0));
    if (!opened.ok) throw new Error(opened.error);
    const svc = opened.value.service;
    if (i === 0) ({ studyId, profileId } = await createSandboxStudy(svc, sandbox, 'Team bench'));
    const plan = await svc.planImport({
      studyId,
      paths: [],
      manifestPath: manifests[i]!,
      timeZone: 'UTC',
      analyses: ['wellbeing', 'parkinsons'],
      isolateOldestSpeaker: false,
      convert: false,
    });
    if (!plan.ok) throw new Error(plan.error.message);
    const insisted = plan.value.files.filter((f) => f.action === 'duplicate').map((f) => f.path);
    const { batchId } = await svc.commitImport(plan.value, { insistOnDuplicates: insisted });
    await svc.pauseSending(profileId);
    await svc.startBatch(batchId);
    await svc.close();
  }
  return { studyId, profileId };
};

/** The workstations started at once, to the last one's end: seconds of wall time. */
const runAll = async (homes: readonly string[], studyId: number, env: Record<string, string>) => {
  const began = performance.now();
  const children: ChildProcess[] = homes.map((home) =>
    spawnTs(CHILD, [home, String(studyId), String(LEASE_SECONDS)], [], env),
  );
  await Promise.all(children.map((c) => waitForLine(c, 'idle')));
  await Promise.all(
    children.map((c) => new Promise((r) => (c.exitCode === null ? c.once('exit', r) : r(0)))),
  );
  return (performance.now() - began) / 1000;
};

/** Claims timed by three connections at once over the study's recordings, queued again. */
const claimLatencies = async (
  cluster: PostgresCluster,
  profileId: number,
  workstations: readonly string[],
): Promise<number[]> => {
  const admin = await connect(cluster);
  await admin.run(
    `UPDATE recordings SET upload_state = 'queued', claimed_by = NULL, lease_until = NULL, upload_attempts = 0`,
  );
  await admin.close();
  const times: number[] = [];
  const claimer = async (workstation: string) => {
    const store = await connect(cluster);
    try {
      for (;;) {
        const t = performance.now();
        const row = await claimNextUpload(store, new Date().toISOString(), profileId, {
          workstation,
          leaseSeconds: LEASE_SECONDS,
        });
        times.push(performance.now() - t);
        if (row === null) return;
      }
    } finally {
      await store.close();
    }
  };
  await Promise.all(workstations.map(claimer));
  return times;
};

const scenario = async (stations: number, audio: string, work: string): Promise<Outcome> => {
  const cluster = await startPostgresCluster();
  const sandbox = await startLabSandbox({
    credits: 2 * RECORDINGS + 100,
    scenario: { preset: 'fast', processingMs: { wellbeing: 1_000, parkinsons: 1_500 } },
  });
  try {
    const dir = join(work, `${stations}`);
    const homes = Array.from({ length: stations }, (_, i) => join(dir, `workstation-${i}`));
    const manifests = homes.map((_, i) =>
      writeFiles(join(dir, `files-${i}`), audio, i, RECORDINGS / stations),
    );
    const { studyId, profileId } = await importAtEach(cluster, homes, manifests, sandbox);
    const store = await connect(cluster);
    await store.run(`DELETE FROM settings WHERE key LIKE 'queue_pause:%'`);
    const cpuBefore = cluster.cpuSeconds();
    const requestsBefore = sandbox.requestLog().length;
    const wallSeconds = await runAll(homes, studyId, { VOICESCOPE_DATABASE_URL: cluster.url(false) });
    const serverCpuSeconds = cluster.cpuSeconds() - cpuBefore;
    const log = sandbox.requestLog().slice(requestsBefore);
    const uploadedRows = Number(
      (await store.get<{ n: number }>(
        `SELECT count(*) AS n FROM recordings WHERE upload_state = 'uploaded'`,
      ))!.n,
    );
    const completedAnalyses = Number(
      (await store.get<{ n: number }>(`SELECT count(*) AS n FROM analyses WHERE state = 'completed'`))!.n,
    );
    await store.run('VACUUM ANALYZE');
    const dbBytes = Number(
      (await store.get<{ n: number }>(
        'SELECT sum(pg_total_relation_size(relid)) AS n FROM pg_stat_user_tables',
      ))!.n,
    );
    const largest = (
      await store.all<{ table: string; bytes: number }>(
        `SELECT relname AS "table", pg_total_relation_size(relid) AS bytes FROM pg_stat_user_tables
         ORDER BY bytes DESC LIMIT 3`,
      )
    ).map((t) => ({ table: t.table, bytes: Number(t.bytes) }));
    const names = (await store.all<{ name: string }>(`SELECT name FROM workstations ORDER BY name`)).map(
      (w) => w.name,
    );
    await store.close();
    // Three claimers: the three workstations, or the one three times.
    const claimMs = await claimLatencies(
      cluster,
      profileId,
      [0, 1, 2].map((i) => names[i % names.length]!),
    );
    return {
      workstations: stations,
      wallSeconds,
      serverCpuSeconds,
      requests: log.length,
      uploads: log.filter((r) => r.endpoint === 'upload').length,
      uploadedRows,
      completedAnalyses,
      dbBytes,
      largest,
      claimMs,
    };
  } finally {
    await sandbox.close();
    cluster.stop();
  }
};

const percentile = (xs: readonly number[], p: number): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

const line = (o: Outcome, one: Outcome): string =>
  [
    `${o.workstations} workstation${o.workstations === 1 ? ' ' : 's'}`.padEnd(15),
    `${o.wallSeconds.toFixed(1).padStart(7)} s`,
    `${(o.wallSeconds / one.wallSeconds).toFixed(2).padStart(5)}x`,
    `${o.serverCpuSeconds.toFixed(1).padStart(7)} s`,
    `${(o.requests / o.wallSeconds).toFixed(1).padStart(6)}/s`,
    `${String(o.uploads).padStart(6)} / ${o.uploadedRows} / ${o.completedAnalyses}`,
    `${percentile(o.claimMs, 50).toFixed(1).padStart(6)} / ${percentile(o.claimMs, 99).toFixed(1)} ms`,
  ].join('  ');

export const benchTeam = async (): Promise<string[]> => {
  if (!hasTool('postgresql-15')) return ['PostgreSQL 15 is not installed: apt-get install postgresql-15'];
  const work = mkdtempSync(join(tmpdir(), 'vs-teambench-'));
  try {
    const audio = join(work, 'audio');
    mkdirSync(audio);
    for (let k = 0; k < DISTINCT; k++)
      writeFileSync(
        join(audio, `a${k}.wav`),
        makeWav({ seconds: 36, speechSeconds: 33, sampleRateHz: 8_000, seed: 3_100 + k }),
      );
    const one = await scenario(1, audio, work);
    const three = await scenario(3, audio, work);
    return [
      `${RECORDINGS} recordings, 2 analyses each, to the end; load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
      `${''.padEnd(15)}  ${'wall'.padStart(9)}  ${'ratio'.padStart(6)}  ${'server CPU'.padStart(9)}  ${'requests'.padStart(8)}  uploads sent / uploaded / analyses completed  claim p50 / p99`,
      line(one, one),
      line(three, one),
      `tables and indexes once done (three workstations): ${(three.dbBytes / 1e6).toFixed(1)} MB, ${(three.dbBytes / RECORDINGS / 1e3).toFixed(1)} kB a recording; largest: ${three.largest
        .map((t) => `${t.table} ${(t.bytes / 1e6).toFixed(1)} MB`)
        .join(', ')}`,
    ];
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
};

if (import.meta.url === `file://${process.argv[1]}`) for (const l of await benchTeam()) console.log(l);
