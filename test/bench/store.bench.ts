/**
 * The study store: three representative queries (the participant timeline at 100,000 recordings, the
 * scheduler's due polls, the import commit of 1,000 files), each run as today (better-sqlite3,
 * synchronous), through the store with plain SQL, and through Kysely, on SQLite; and through the store
 * and Kysely on a throwaway PostgreSQL 15 server (when installed). CPU time of this process per call
 * (user + system), measured in the same run; PostgreSQL's own CPU is not in it.
 * `VS_BENCH_STORE_RECORDINGS` sets the study's size (default 100,000).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { openStudyDb, type Db } from '../../main/db/open';
import { duePolls } from '../../main/db/repos/polls.repo';
import { timelineSessions } from '../../main/db/repos/timeline.repo';
import { migratePostgres } from '../../main/db/store/migrate-store';
import { openPgStore, POOL_DEFAULTS } from '../../main/db/store/pg-store';
import { sqliteStore } from '../../main/db/store/sqlite-store';
import type { Store } from '../../main/db/store/types';
import { LARGE_STUDY, seedLargeStudyDb } from '../support/large-study';
import { startPostgresCluster } from '../support/postgres-cluster';
import { hasTool } from '../support/reference-tools';
import * as q from './store-queries';

const RECORDINGS = Number(process.env['VS_BENCH_STORE_RECORDINGS'] ?? LARGE_STUDY.recordings);
const STUDY = { ...LARGE_STUDY, recordings: RECORDINGS, participants: Math.max(10, RECORDINGS / 10) };
const NOW = new Date(STUDY.now).toISOString();

/**
 * CPU milliseconds of this process per call, over `n` calls after one warm-up; `reset` (not counted)
 * runs after each call, so every call meets the same database.
 */
const cpuPerCall = async (fn: () => unknown, n: number, reset?: () => unknown): Promise<number> => {
  await fn();
  await reset?.();
  let total = 0;
  for (let i = 0; i < n; i++) {
    const t = process.cpuUsage();
    await fn();
    const d = process.cpuUsage(t);
    total += d.user + d.system;
    await reset?.();
  }
  return total / 1000 / n;
};
/** Removes the recordings an import run added. */
const unimport = (store: Store) => () => store.run("DELETE FROM recordings WHERE source_path LIKE '/in/%'");

let fileNo = 0;
const files = (n: number): q.ImportedFile[] =>
  Array.from({ length: n }, () => ({
    participantId: 1 + (fileNo % STUDY.participants),
    path: `/in/f${++fileNo}.wav`,
    sha256: `h${fileNo}`,
  }));

/** The participant with the most uploaded recordings (the timeline's heaviest case among the seeded). */
const busiestParticipant = (db: Db): number =>
  (
    db
      .prepare(
        `SELECT participant_id AS id FROM recordings WHERE upload_state = 'uploaded' GROUP BY participant_id ORDER BY count(*) DESC LIMIT 1`,
      )
      .get() as { id: number }
  ).id;

interface Row {
  query: string;
  engine: string;
  today?: number;
  plain: number;
  kysely: number;
}

const measureSqlite = async (db: Db, pid: number): Promise<Row[]> => {
  const store = sqliteStore(db);
  const k: q.StudyKysely = new Kysely({ dialect: new SqliteDialect({ database: db }) });
  return [
    {
      query: 'participant timeline',
      engine: 'SQLite',
      today: await cpuPerCall(() => timelineSessions(store, pid), 200),
      plain: await cpuPerCall(() => q.timelinePlain(store, pid), 200),
      kysely: await cpuPerCall(() => q.timelineKysely(k, pid), 200),
    },
    {
      query: 'due polls (50)',
      engine: 'SQLite',
      today: await cpuPerCall(() => duePolls(store, 1, NOW, 50), 20),
      plain: await cpuPerCall(() => q.duePollsPlain(store, 1, NOW, 50), 20),
      kysely: await cpuPerCall(() => q.duePollsKysely(k, 'sqlite', 1, NOW, 50), 20),
    },
    {
      query: 'import commit (1,000 files)',
      engine: 'SQLite',
      today: await cpuPerCall(() => q.importToday(db, files(1000)), 5, unimport(store)),
      plain: await cpuPerCall(() => q.importPlain(store, files(1000)), 5, unimport(store)),
      kysely: await cpuPerCall(() => q.importKysely(k, files(1000)), 5, unimport(store)),
    },
  ];
};

const COPIED = ['service_profiles', 'studies', 'batches', 'participants', 'recordings', 'analyses'];

/** Copies the seeded study's tables into PostgreSQL, 200 rows a statement, triggers off meanwhile. */
const copyStudy = async (from: Store, to: Store): Promise<void> => {
  await to.run('ALTER TABLE recordings DISABLE TRIGGER USER');
  await to.run('ALTER TABLE analyses DISABLE TRIGGER USER');
  for (const table of COPIED) {
    let batch: Record<string, unknown>[] = [];
    const flush = async () => {
      if (!batch.length) return;
      const cols = Object.keys(batch[0]!);
      const values = batch.map(() => `(${cols.map(() => '?').join(', ')})`).join(', ');
      await to.run(
        `INSERT INTO ${table} (${cols.join(', ')}) VALUES ${values}`,
        batch.flatMap((r) => Object.values(r) as never[]),
      );
      batch = [];
    };
    for await (const row of from.iterate<Record<string, unknown>>(`SELECT * FROM ${table}`)) {
      batch.push(row);
      if (batch.length === 200) await flush();
    }
    await flush();
    if (table !== 'analyses')
      await to.run(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT max(id) FROM ${table}))`);
  }
  await to.run('ALTER TABLE recordings ENABLE TRIGGER USER');
  await to.run('ALTER TABLE analyses ENABLE TRIGGER USER');
  await to.run('ANALYZE');
};

const measurePostgres = async (db: Db, pid: number): Promise<Row[]> => {
  const cluster = await startPostgresCluster();
  const config = {
    host: cluster.host,
    port: cluster.port,
    user: cluster.user,
    password: cluster.password,
    database: cluster.database,
    max: 4,
  };
  const store = openPgStore(config);
  const k: q.StudyKysely = new Kysely({
    dialect: new PostgresDialect({ pool: new pg.Pool({ ...POOL_DEFAULTS, ...config }) }),
  });
  try {
    await migratePostgres(store);
    await copyStudy(sqliteStore(db), store);
    return [
      {
        query: 'participant timeline',
        engine: 'PostgreSQL',
        plain: await cpuPerCall(() => q.timelinePlain(store, pid), 200),
        kysely: await cpuPerCall(() => q.timelineKysely(k, pid), 200),
      },
      {
        query: 'due polls (50)',
        engine: 'PostgreSQL',
        plain: await cpuPerCall(() => q.duePollsPlain(store, 1, NOW, 50), 20),
        kysely: await cpuPerCall(() => q.duePollsKysely(k, 'postgres', 1, NOW, 50), 20),
      },
      {
        query: 'import commit (1,000 files)',
        engine: 'PostgreSQL',
        plain: await cpuPerCall(() => q.importPlain(store, files(1000)), 5, unimport(store)),
        kysely: await cpuPerCall(() => q.importKysely(k, files(1000)), 5, unimport(store)),
      },
    ];
  } finally {
    await k.destroy();
    await store.close();
    cluster.stop();
  }
};

const line = (r: Row) => {
  const ms = (x: number) => x.toFixed(3).padStart(9);
  const ratio = (x: number) => (r.today ? `${(x / r.today).toFixed(2)}x` : '').padStart(7);
  return `${r.query.padEnd(28)} ${r.engine.padEnd(11)} ${r.today === undefined ? '        -' : ms(r.today)} ${ms(r.plain)} ${ratio(r.plain)} ${ms(r.kysely)} ${ratio(r.kysely)}`;
};

export const benchStore = async (): Promise<string[]> => {
  const dir = mkdtempSync(join(tmpdir(), 'vs-storebench-'));
  const { db } = openStudyDb(join(dir, 'study.sqlite'));
  try {
    seedLargeStudyDb(db, STUDY);
    const pid = busiestParticipant(db);
    const rows = await measureSqlite(db, pid);
    if (hasTool('postgresql-15')) rows.push(...(await measurePostgres(db, pid)));
    return [
      `${STUDY.recordings} recordings; CPU ms of this process per call (ratio to today's better-sqlite3 code)`,
      `${'query'.padEnd(28)} ${'engine'.padEnd(11)} ${'today'.padStart(9)} ${'store+SQL'.padStart(9)} ${''.padStart(7)} ${'Kysely'.padStart(9)}`,
      ...rows.map(line),
    ];
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
};

if (import.meta.url === `file://${process.argv[1]}`) for (const l of await benchStore()) console.log(l);
