/**
 * One measurement of store-ab.ts in a process of its own, on the checkout at `root`, on SQLite through
 * a store (`sqlite`), on SQLite through the better-sqlite3 handle itself (`handle`: an older tree whose
 * repositories and services took the handle) or on PostgreSQL (`pg`; VS_AB_PG: the pool's settings as
 * JSON). The tree's modules are loaded from its own folder, so the same calls run its code. Prints one
 * line, `RESULT {json}`.
 *   seed-big <root> <file>                the export's study of 100,000 recordings (export.bench.ts)
 *   seed-pending <root> <file>            the scheduler's study: 10,000 recordings, 30,000 analyses pending
 *   pg-load <file> <tables>               copies a seeded SQLite study into VS_AB_PG's database
 *   timeline <root> sqlite|handle <file> | pg    participant 1's timeline, every measure: p50 and CPU per call
 *   export <root> sqlite|handle <file> <dir> | pg <dir>   long + wide + summary: time, CPU, peak RSS
 *   import <root> sqlite|handle <wavs> <file> | pg <wavs> the commit of a preview of the folder: time and CPU
 *   scheduler <root> sqlite|handle <file> | pg   the queue runner for VS_AB_SCHEDULER_S seconds: CPU
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Store } from '../../main/db/store/types';

type Mod = Record<string, (...args: never[]) => unknown>;
type Call = (...args: unknown[]) => unknown;

const load = async (root: string, path: string): Promise<Record<string, Call>> =>
  (await import(join(root, path))) as Record<string, Call>;

const result = (r: Record<string, number>): void => {
  process.stdout.write(`RESULT ${JSON.stringify(r)}\n`);
};

const cpuMs = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1000;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The database the measurement reads: the tree's own opening of a SQLite file, or a pool on PostgreSQL. */
interface Opened {
  /** What the tree's repositories take: its handle (the older tree) or a store. */
  q: unknown;
  /** What its services take as their context: the handle, or `{ store }`. */
  ctx: unknown;
  store: Store | null;
  close(): Promise<void>;
}

const openOn = async (root: string, engine: string, file?: string): Promise<Opened> => {
  if (engine === 'pg') {
    const { openPgStore } = (await load(root, 'main/db/store/pg-store.ts')) as unknown as {
      openPgStore: (c: object) => Store;
    };
    const store = openPgStore(JSON.parse(process.env['VS_AB_PG']!) as object);
    return { q: store, ctx: { store }, store, close: () => store.close() };
  }
  const { openStudyDb } = await load(root, 'main/db/open.ts');
  const { db } = openStudyDb!(file) as { db: Database.Database };
  if (engine === 'handle') return { q: db, ctx: db, store: null, close: async () => void db.close() };
  const { sqliteStore } = await load(root, 'main/db/store/sqlite-store.ts');
  const store = sqliteStore!(db) as Store;
  return { q: store, ctx: { store }, store, close: async () => void db.close() };
};

const timeline = async (root: string, engine: string, file?: string): Promise<void> => {
  const o = await openOn(root, engine, file);
  const { participantTimeline } = await load(root, 'main/change/timeline.ts');
  const once = () => participantTimeline!(o.q, 1);
  const first = (await once()) as { sessions: unknown[]; measures: unknown[] };
  const wall: number[] = [];
  const cpu0 = process.cpuUsage();
  const N = 30;
  for (let i = 0; i < N; i++) {
    const t = performance.now();
    await once();
    wall.push(performance.now() - t);
  }
  result({
    p50Ms: median(wall),
    cpuMsPerCall: cpuMs(process.cpuUsage(cpu0)) / N,
    sessions: first.sessions.length,
    measures: first.measures.length,
  });
  await o.close();
};

const exportOnce = async (
  root: string,
  engine: string,
  file: string | undefined,
  dir: string,
): Promise<void> => {
  const startMb = process.memoryUsage().rss / 1e6;
  const o = await openOn(root, engine, file);
  const { runExport } = await load(root, 'main/export/run-export.ts');
  const cpu0 = process.cpuUsage();
  const t = performance.now();
  const r = (await runExport!(
    o.ctx,
    { studyId: 1, forms: ['long', 'wide', 'summary'], timeZone: 'Europe/Berlin' },
    { outDir: dir, folderName: `export-${process.pid}`, appVersion: 'bench' },
  )) as { ok: boolean; error?: { message: string } };
  const seconds = (performance.now() - t) / 1000;
  const cpu = cpuMs(process.cpuUsage(cpu0)) / 1000;
  await o.close();
  if (!r.ok) throw new Error(r.error?.message);
  result({ seconds, cpuSeconds: cpu, peakMb: process.resourceUsage().maxRSS / 1024, startMb });
};

const PROFILE_AND_STUDY = [
  `INSERT INTO service_profiles (id, name, base_url, api_version, created_at) VALUES (1, 'p', 'http://x', 'v1.3', 'x')`,
  `INSERT INTO studies (id, name, profile_id, created_at) VALUES (1, 's', 1, 'x')`,
];

const importOnce = async (root: string, engine: string, wavs: string, file?: string): Promise<void> => {
  if (engine === 'pg') {
    const { migratePostgres } = await load(root, 'main/db/store/migrate-store.ts');
    const { openPgStore } = await load(root, 'main/db/store/pg-store.ts');
    const store = openPgStore!(JSON.parse(process.env['VS_AB_PG']!)) as Store;
    await migratePostgres!(store);
    for (const s of PROFILE_AND_STUDY) await store.run(s);
    await store.run(`SELECT setval(pg_get_serial_sequence('service_profiles', 'id'), 1)`);
    await store.run(`SELECT setval(pg_get_serial_sequence('studies', 'id'), 1)`);
    await store.close();
  }
  const o = await openOn(root, engine, file);
  if (engine !== 'pg') {
    const db = (o.store ? null : o.q) as Database.Database | null;
    if (db) for (const s of PROFILE_AND_STUDY) db.prepare(s).run();
    else for (const s of PROFILE_AND_STUDY) await o.store!.run(s);
  }
  const { planImport } = await load(root, 'main/import/import-plan.ts');
  const { commitImport } = await load(root, 'main/import/import-commit.ts');
  const plan = await planImport!(
    o.ctx,
    {
      studyId: 1,
      paths: [wavs],
      filenamePattern: '{participant}_{session}.wav',
      timeZone: 'UTC',
      analyses: ['wellbeing'],
      isolateOldestSpeaker: false,
      convert: false,
    },
    { measureSpeech: false },
  );
  const cpu0 = process.cpuUsage();
  const t = performance.now();
  const done = (await commitImport!(o.ctx, plan, { convertedDir: wavs, now: Date.now })) as {
    recordings: number;
  };
  const ms = performance.now() - t;
  result({ ms, cpuMs: cpuMs(process.cpuUsage(cpu0)), recordings: done.recordings });
  await o.close();
};

const PENDING = 10_000;
/** Spread over 100 participants: the study's triggers count each participant's recordings on every insert. */
const PARTICIPANTS = 100;

/** The scheduler bench's study (scheduler.bench.ts): 10,000 uploaded recordings, three analyses each processing, all due. */
const seedPending = async (root: string, file: string): Promise<void> => {
  const { openStudyDb } = await load(root, 'main/db/open.ts');
  const { db } = openStudyDb!(file) as { db: Database.Database };
  for (const s of PROFILE_AND_STUDY) db.prepare(s).run();
  const insP = db.prepare(
    `INSERT INTO participants (id, study_id, code, account_id, created_at) VALUES (?, 1, ?, ?, 'x')`,
  );
  for (let p = 1; p <= PARTICIPANTS; p++) insP.run(p, `P${p}`, `acc-${p}`);
  db.prepare(
    `INSERT INTO batches (id, study_id, created_at, analyses, state) VALUES (1, 1, 'x', '["wellbeing","parkinsons","alzheimers"]', 'finished')`,
  ).run();
  const rec = db.prepare(
    `INSERT INTO recordings (id, study_id, participant_id, batch_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, upload_state, recording_id, uploaded_at, created_at)
     VALUES (?, 1, ?, 1, ?, ?, 1, '2026-01-01T00:00:00Z', 'manifest', 'uploaded', ?, '2026-01-01T00:00:00Z', 'x')`,
  );
  const an = db.prepare(
    `INSERT INTO analyses (recording_id, type, state, requested_at, next_poll_at) VALUES (?, ?, 'processing', 'x', ?)`,
  );
  db.transaction(() => {
    for (let i = 1; i <= PENDING; i++) {
      rec.run(
        i,
        1 + (i % PARTICIPANTS),
        `/f/${i}.wav`,
        `h${i}`,
        `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      );
      // due over ten minutes from the start of 2026 (all due: the budget of 2 requests/s is the limit)
      const due = new Date(Date.UTC(2026, 0, 1) + (i % 600) * 1_000).toISOString();
      for (const t of ['wellbeing', 'parkinsons', 'alzheimers']) an.run(i, t, due);
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  result({ recordings: PENDING });
};

const scheduler = async (root: string, engine: string, file?: string): Promise<void> => {
  const o = await openOn(root, engine, file);
  const { createQueueRunner } = await load(root, 'main/engine/queue-runner.ts');
  const { createFakeClient } = await load(root, 'test/support/fake-client.ts');
  const client = createFakeClient!(Date.now) as {
    getAnalysis: (...a: unknown[]) => Promise<unknown>;
    calls: { endpoint: string }[];
  };
  const slow = client.getAnalysis;
  client.getAnalysis = async (...a: unknown[]) => {
    await new Promise((r) => setTimeout(r, 20));
    return slow(...a);
  };
  const seconds = Number(process.env['VS_AB_SCHEDULER_S'] ?? 20);
  const runner = createQueueRunner!({
    ...(o.store ? { store: o.store } : { db: o.q }),
    client,
    profileId: 1,
  }) as {
    start(): unknown;
    stop(): Promise<void>;
  };
  const cpu0 = process.cpuUsage();
  const t = performance.now();
  await runner.start();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  await runner.stop();
  const wallS = (performance.now() - t) / 1000;
  const cpu = cpuMs(process.cpuUsage(cpu0));
  const polls = client.calls.filter((c) => c.endpoint === 'getAnalysis').length;
  result({ cpuMs: cpu, wallS, polls, cpuMsPerPoll: cpu / Math.max(1, polls) });
  await o.close();
};

/**
 * Copies the named tables of a seeded SQLite study into PostgreSQL, 5,000 rows a statement (as one JSON
 * parameter, json_populate_recordset: a statement of many bound values is slower by an order), then ANALYZE.
 */
const pgLoad = async (file: string, tables: string[]): Promise<void> => {
  const root = join(import.meta.dirname, '..', '..');
  const { migratePostgres } = await load(root, 'main/db/store/migrate-store.ts');
  const { openPgStore } = await load(root, 'main/db/store/pg-store.ts');
  const store = openPgStore!(JSON.parse(process.env['VS_AB_PG']!)) as Store;
  await migratePostgres!(store);
  const from = new Database(file, { readonly: true });
  const t = performance.now();
  let rows = 0;
  for (const table of tables) {
    // The rows carry the counters the triggers keep (copied as they are): the triggers rest meanwhile.
    await store.run(`ALTER TABLE ${table} DISABLE TRIGGER USER`);
    let batch: Record<string, unknown>[] = [];
    const flush = async () => {
      if (!batch.length) return;
      const cols = Object.keys(batch[0]!).join(', ');
      await store.run(
        `INSERT INTO ${table} (${cols}) SELECT ${cols} FROM json_populate_recordset(NULL::${table}, ?)`,
        [JSON.stringify(batch)],
      );
      rows += batch.length;
      batch = [];
    };
    let hasId = false;
    for (const row of from.prepare(`SELECT * FROM ${table}`).iterate() as Iterable<Record<string, unknown>>) {
      hasId = 'id' in row;
      batch.push(row);
      if (batch.length === 5_000) await flush();
    }
    await flush();
    if (hasId)
      await store.run(
        `SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT max(id) FROM ${table}))`,
      );
    await store.run(`ALTER TABLE ${table} ENABLE TRIGGER USER`);
  }
  await store.run('ANALYZE');
  from.close();
  await store.close();
  result({ rows, seconds: (performance.now() - t) / 1000 });
};

const [what, a, b, c, d] = process.argv.slice(2);
const seedBig = async (root: string, file: string) => {
  const { seedBigStudy } = (await import(join(root, 'test/bench/export.bench.ts'))) as Mod;
  seedBigStudy!(file as never, Number(process.env['VS_AB_RECORDINGS'] ?? 100_000) as never);
  result({});
};
if (what === 'seed-big') await seedBig(a!, b!);
else if (what === 'seed-pending') await seedPending(a!, b!);
else if (what === 'pg-load') await pgLoad(a!, b!.split(','));
else if (what === 'timeline') await timeline(a!, b!, c);
else if (what === 'export') await exportOnce(a!, b!, b === 'pg' ? undefined : c, (b === 'pg' ? c : d)!);
else if (what === 'import') await importOnce(a!, b!, c!, d);
else if (what === 'scheduler') await scheduler(a!, b!, c);
else throw new Error(`unknown probe: ${what}`);
