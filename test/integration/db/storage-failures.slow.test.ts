/**
 * The queue runner when the study database stops taking writes in the middle of a batch, against the
 * sandbox: a full disk (SQLite's own SQLITE_FULL: the database may grow by no more pages), a database
 * that refuses writes (SQLITE_READONLY: `query_only`, and a read-only connection), and a lock held by
 * another program (SQLITE_BUSY). The engine must not crash, must stop sending and polling with the
 * researcher-facing reason, must not lose an upload the service has charged, and must carry on when the
 * researcher resumes; a restart before that turns the unsaved upload into `upload_uncertain`, never
 * into a second upload.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../../main/api/client';
import { openStudyDb, type Db } from '../../../main/db/open';
import { sqliteStore } from '../../../main/db/store/sqlite-store';
import { createQueueRunner, type QueueRunner } from '../../../main/engine/queue-runner';
import { DEMO_API_KEY } from '../../../main/sandbox/config';
import type { Sandbox } from '../../../main/sandbox/server';
import { openStudyService } from '../../../main/services/study-service';
import type { EngineEvent } from '../../../shared/study';
import { makeWav } from '../../fixtures/audio';
import { createSandboxStudy, startLabSandbox } from '../../support/lab-sandbox';

const FILES = 8;
const root = mkdtempSync(join(tmpdir(), 'vs-storage-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const open: { close(): unknown }[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

/** A workspace with one started batch of FILES recordings (two participants), nothing sent yet; returns its database path. */
const prepare = async (name: string, sandbox: Sandbox): Promise<string> => {
  const dir = join(root, name);
  mkdirSync(join(dir, 'files'), { recursive: true });
  const rows = ['file,participant,recorded_at'];
  for (let i = 0; i < FILES; i++) {
    writeFileSync(
      join(dir, 'files', `r${i}.wav`),
      makeWav({ seconds: 36, speechSeconds: 32, sampleRateHz: 8_000, seed: 7_000 + i }),
    );
    rows.push(`r${i}.wav,P-${i % 2},2026-05-${String(1 + i).padStart(2, '0')}T10:00:00Z`);
  }
  writeFileSync(join(dir, 'files', 'manifest.csv'), rows.join('\n'));
  const svc = openStudyService({ workspaceDir: join(dir, 'home') });
  const { studyId, profileId } = await createSandboxStudy(svc, sandbox, name);
  const plan = await svc.planImport({
    studyId,
    paths: [],
    manifestPath: join(dir, 'files', 'manifest.csv'),
    timeZone: 'UTC',
    analyses: ['wellbeing', 'parkinsons'],
    isolateOldestSpeaker: false,
    convert: false,
  });
  if (!plan.ok) throw new Error(plan.error.message);
  const { batchId } = await svc.commitImport(plan.value);
  await svc.createAccounts(studyId);
  svc.pauseSending(profileId); // the service's own runner sends nothing; the test's runner does
  await svc.startBatch(batchId);
  const dbPath = svc.workspace.dbPath;
  await svc.close();
  const db = openStudyDb(dbPath).db;
  db.prepare(`DELETE FROM settings WHERE key LIKE 'queue_pause:%'`).run();
  db.close();
  return dbPath;
};

const clientFor = (sandbox: Sandbox): ApiClient =>
  createApiClient({ profile: { baseUrl: sandbox.url, version: 'v1.3', apiKey: DEMO_API_KEY } });

const runnerFor = (
  db: Db,
  client: ApiClient,
  events: EngineEvent[],
  extra: { busyRetryMs?: number } = {},
): QueueRunner => {
  const r = createQueueRunner({
    store: sqliteStore(db),
    db,
    client,
    profileId: 1,
    onEvent: (e) => events.push(e),
    idleRecheckMs: 100,
    poll: {
      firstPollAfterMs: 5_000,
      intervalMs: 5_000,
      jitterMs: 0,
      globalRatePerSecond: 50,
      globalBurst: 10,
    },
    queue: { uploadConcurrency: 2, uploadsPerMinute: 6_000 },
    ...extra,
  });
  open.push({ close: () => r.stop() });
  return r;
};

/** SQLite may grow the database by no page beyond its current size, and the event log's last page is filled: every write that logs an event now fails with SQLITE_FULL, exactly as on a full disk. */
const fillDisk = (db: Db) => {
  db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
  const filler = db.prepare(`INSERT INTO event_log (at, kind, detail) VALUES (?, 'filler', '{}')`);
  try {
    for (;;) filler.run(new Date().toISOString());
  } catch (e) {
    if ((e as { code?: string }).code !== 'SQLITE_FULL') throw e;
  }
};
const freeSpace = (db: Db) => db.pragma('max_page_count = 1073741823');

const until = async (cond: () => boolean, ms = 20_000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
};
const count = (db: Db, sql: string, ...args: unknown[]) => (db.prepare(sql).get(...args) as { n: number }).n;
const uploadsSeen = (sandbox: Sandbox) => sandbox.requestLog().filter((r) => r.endpoint === 'upload').length;
const pollsSeen = (sandbox: Sandbox) =>
  sandbox.requestLog().filter((r) => r.endpoint === 'getAnalysis').length;
const pausedWith = (events: EngineEvent[]) =>
  events.filter((e): e is Extract<EngineEvent, { type: 'queue-paused' }> => e.type === 'queue-paused');

/** What every test ends with: each file sent once, the service holding each (account, audio) once, the database sound. */
const expectNothingSentTwice = (db: Db, sandbox: Sandbox) => {
  expect(count(db, `SELECT max(upload_attempts) n FROM recordings`)).toBe(1);
  const held = sandbox.listRecordings();
  expect(new Set(held.map((r) => `${r.accountId}:${r.audioSha256}`)).size).toBe(held.length);
  expect(held.length).toBe(FILES);
  expect(uploadsSeen(sandbox)).toBe(FILES);
  expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
};

it('a disk that fills while an accepted upload is being saved: sending and polling stop with the reason; on resume the charged upload is saved, nothing is sent twice', async () => {
  const sandbox = await startLabSandbox({ scenario: { preset: 'fast' } });
  open.push(sandbox);
  const dbPath = await prepare('full', sandbox);
  const db = openStudyDb(dbPath).db;
  open.push(db);
  const real = clientFor(sandbox);
  let answered = 0;
  const client: ApiClient = {
    ...real,
    upload: async (r) => {
      const out = await real.upload(r);
      if (++answered === 3) fillDisk(db);
      return out;
    },
  };
  const events: EngineEvent[] = [];
  const runner = runnerFor(db, client, events);
  await runner.start();

  await until(() => runner.state().pause?.storage !== undefined);
  const st = runner.state();
  expect(st.pause!.storage!.code).toBe('DISK_FULL');
  expect(st.pause!.reason).toMatch(
    /disk that holds the study database is full.*Free space on the drive that holds the folder .*home.*Nothing was lost/s,
  );
  expect(pausedWith(events).at(-1)!.reason).toBe(st.pause!.reason); // what the UI shows
  expect(pausedWith(events).at(-1)!.untilMs).toBeNull(); // until the researcher resumes
  await until(() => runner.state().inFlight === 0);
  const unsaved = runner.state().unrecorded;
  expect(unsaved).toBeGreaterThanOrEqual(1);
  // The service has charged those uploads; the database still says `uploading` (so a restart would hold them as uncertain).
  expect(count(db, `SELECT count(*) n FROM recordings WHERE upload_state = 'uploading'`)).toBe(unsaved);
  expect(sandbox.listRecordings().length).toBe(
    count(db, `SELECT count(*) n FROM recordings WHERE upload_state IN ('uploaded', 'uploading')`),
  );

  // Paused: nothing more is sent or polled.
  const sent = uploadsSeen(sandbox);
  const polled = pollsSeen(sandbox);
  await new Promise((r) => setTimeout(r, 1_500));
  expect(uploadsSeen(sandbox)).toBe(sent);
  expect(pollsSeen(sandbox)).toBe(polled);
  expect(sent).toBeLessThan(FILES);

  // The researcher frees space and resumes: the unsaved outcomes are written first, then the batch carries on.
  freeSpace(db);
  runner.resume();
  await runner.whenIdle();
  expect(runner.state()).toMatchObject({ pause: null, unrecorded: 0 });
  expect(events.at(-1)?.type === 'queue-resumed' || events.some((e) => e.type === 'queue-resumed')).toBe(
    true,
  );
  expect(count(db, `SELECT count(*) n FROM recordings WHERE upload_state = 'uploaded'`)).toBe(FILES);
  const heldIds = new Set(sandbox.listRecordings().map((r) => r.id));
  for (const r of db.prepare(`SELECT recording_id FROM recordings`).all() as { recording_id: string }[])
    expect(heldIds.has(r.recording_id)).toBe(true);
  expect(count(db, `SELECT count(*) n FROM analyses WHERE state = 'completed'`)).toBe(2 * FILES);
  expectNothingSentTwice(db, sandbox);
}, 60_000);

it('a disk that fills and a stop before it is freed: at the next start the unsaved upload is held as uncertain, never sent again', async () => {
  const sandbox = await startLabSandbox({ scenario: { preset: 'fast' } });
  open.push(sandbox);
  const dbPath = await prepare('full-then-restart', sandbox);
  let db = openStudyDb(dbPath).db;
  const real = clientFor(sandbox);
  let answered = 0;
  const client: ApiClient = {
    ...real,
    upload: async (r) => {
      const out = await real.upload(r);
      if (++answered === 2) fillDisk(db);
      return out;
    },
  };
  const first = runnerFor(db, client, []);
  await first.start();
  await until(() => first.state().pause?.storage?.code === 'DISK_FULL' && first.state().inFlight === 0);
  const unsaved = first.state().unrecorded;
  expect(unsaved).toBeGreaterThanOrEqual(1);
  await first.stop(); // still full: the outcome cannot be written; the row stays `uploading`
  db.close();

  db = openStudyDb(dbPath).db; // the disk was freed meanwhile (max_page_count is per connection)
  open.push(db);
  const events: EngineEvent[] = [];
  const second = runnerFor(db, real, events);
  await second.start();
  await second.whenIdle();
  const uncertain = db
    .prepare(`SELECT upload_error FROM recordings WHERE upload_state = 'upload_uncertain'`)
    .all() as { upload_error: string }[];
  expect(uncertain.length).toBe(unsaved);
  for (const u of uncertain)
    expect(JSON.parse(u.upload_error).reason).toMatch(/stopped while this upload was being sent/);
  expect(count(db, `SELECT count(*) n FROM recordings WHERE upload_state = 'uploaded'`)).toBe(
    FILES - unsaved,
  );
  expectNothingSentTwice(db, sandbox);
}, 60_000);

it('a database that refuses writes while results come in: polling stops with the reason, no result is lost, and it all completes on resume', async () => {
  const sandbox = await startLabSandbox({ scenario: { preset: 'fast' } });
  open.push(sandbox);
  const dbPath = await prepare('readonly-mid-run', sandbox);
  const db = openStudyDb(dbPath).db;
  open.push(db);
  const real = clientFor(sandbox);
  let polls = 0;
  // After the third answer to a poll, the database stops taking writes (SQLITE_READONLY from SQLite itself).
  const client: ApiClient = {
    ...real,
    getAnalysis: async (id, t) => {
      const res = await real.getAnalysis(id, t);
      if (++polls === 3) db.pragma('query_only = 1');
      return res;
    },
  };
  const events: EngineEvent[] = [];
  const runner = runnerFor(db, client, events);
  await runner.start();
  await until(() => runner.state().pause?.storage !== undefined);
  expect(runner.state().pause!.storage!.code).toBe('DB_READONLY');
  expect(pausedWith(events).at(-1)!.reason).toMatch(
    /cannot be written.*read-only.*Make the folder .* writable.*Nothing was lost/s,
  );
  const completed = count(db, `SELECT count(*) n FROM analyses WHERE state = 'completed'`);
  const values = count(db, `SELECT count(*) n FROM measure_values`);
  const polled = pollsSeen(sandbox);
  await new Promise((r) => setTimeout(r, 1_000));
  expect(pollsSeen(sandbox)).toBe(polled);

  db.pragma('query_only = 0');
  runner.resume();
  await runner.whenIdle();
  expect(count(db, `SELECT count(*) n FROM analyses WHERE state = 'completed'`)).toBe(2 * FILES);
  expect(count(db, `SELECT count(*) n FROM analyses WHERE state = 'completed'`)).toBeGreaterThanOrEqual(
    completed,
  );
  expect(count(db, `SELECT count(*) n FROM measure_values`)).toBeGreaterThan(values);
  expectNothingSentTwice(db, sandbox);
}, 60_000);

it('a workspace database that can only be read: the engine starts paused with the reason and sends nothing', async () => {
  const sandbox = await startLabSandbox({ scenario: { preset: 'fast' } });
  open.push(sandbox);
  const dbPath = await prepare('readonly-from-start', sandbox);
  const db = new Database(dbPath, { readonly: true });
  open.push(db);
  const events: EngineEvent[] = [];
  const runner = runnerFor(db, clientFor(sandbox), events);
  await runner.start();
  await until(() => runner.state().pause?.storage !== undefined);
  expect(runner.state().pause!.storage!.code).toBe('DB_READONLY');
  expect(pausedWith(events)[0]!.reason).toMatch(/cannot be written/);
  await new Promise((r) => setTimeout(r, 500));
  expect(uploadsSeen(sandbox)).toBe(0);
  await runner.stop();
}, 60_000);

it('a database locked by another program for a while: work stops, then resumes by itself once the lock is gone', async () => {
  const sandbox = await startLabSandbox({ scenario: { preset: 'fast' } });
  open.push(sandbox);
  const dbPath = await prepare('busy', sandbox);
  const db = openStudyDb(dbPath).db;
  open.push(db);
  db.pragma('busy_timeout = 50');
  const other = new Database(dbPath);
  open.push(other);
  const real = clientFor(sandbox);
  let answered = 0;
  // Another program takes the write lock as the second upload is answered, and keeps it for 1.5 s.
  const client: ApiClient = {
    ...real,
    upload: async (r) => {
      const out = await real.upload(r);
      if (++answered === 2) {
        other.exec('BEGIN IMMEDIATE');
        setTimeout(() => other.exec('COMMIT'), 1_500);
      }
      return out;
    },
  };
  const events: EngineEvent[] = [];
  const runner = runnerFor(db, client, events, { busyRetryMs: 2_000 });
  await runner.start();
  await until(() => runner.state().pause?.storage !== undefined);
  expect(runner.state().pause!.storage!.code).toBe('DB_BUSY');
  expect(runner.state().pause!.untilMs).not.toBeNull();
  expect(pausedWith(events).at(-1)!.reason).toMatch(/locked by another program.*tries again by itself/s);
  await runner.whenIdle(); // no resume(): it carries on by itself
  expect(count(db, `SELECT count(*) n FROM recordings WHERE upload_state = 'uploaded'`)).toBe(FILES);
  expectNothingSentTwice(db, sandbox);
}, 60_000);
