/**
 * The engine process is killed (SIGKILL: no clean-up of any kind) at random points of a batch, many
 * times, and started again, on each engine: the workspace's SQLite file and a study database on a real
 * PostgreSQL 15 server. Nothing may be uploaded twice, no completed result may be lost, an upload cut
 * off mid-way becomes `upload_uncertain` (never re-sent on its own), and polling resumes from the
 * schedule stored in the database.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStudyDb } from '../../../main/db/open';
import { connectPostgres } from '../../../main/db/store/connect';
import { sqliteStore } from '../../../main/db/store/sqlite-store';
import type { Store } from '../../../main/db/store/types';
import { openChosenStudyService } from '../../../main/services/open-study-service';
import { createSandboxStudy, startLabSandbox } from '../../support/lab-sandbox';
import { makeWav, seededRandom } from '../../fixtures/audio';
import { startPostgresCluster } from '../../support/postgres-cluster';
import { describeWithTool } from '../../support/reference-tools';
import { spawnTs, waitForLine } from '../../support/spawn';

const CHILD = join(import.meta.dirname, '../../support/engine-child.ts');
const FILES = 60;
const KILLS = 10;
const root = mkdtempSync(join(tmpdir(), 'vs-kill-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Where the study is kept, as the engine process is told (its address) and as this test reads it. */
interface StudyDatabase {
  /** The address the first open is given (with the password, moved to the workspace's key store), or null for the file. */
  readonly firstAddress: string | null;
  /** The environment of the engine process (the address without the password). */
  readonly env: Readonly<Record<string, string>>;
  reader(home: string): Promise<Store>;
}

const writeFiles = (dir: string): string => {
  const rows = ['file,participant,recorded_at'];
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < FILES; i++) {
    writeFileSync(join(dir, `r${i}.wav`), makeWav({ seconds: 44, speechSeconds: 36, seed: 300 + i }));
    rows.push(`r${i}.wav,P-${i % 6},2026-01-${String(1 + (i % 28)).padStart(2, '0')}T10:00:00Z`);
  }
  writeFileSync(join(dir, 'manifest.csv'), rows.join('\n'));
  return join(dir, 'manifest.csv');
};

const killTest = async (name: string, database: StudyDatabase) => {
  // Uploads take 50–350 ms, so kills land before, during and after requests.
  const sandbox = await startLabSandbox({
    scenario: {
      preset: 'fast',
      processingMs: { wellbeing: 1_000, parkinsons: 1_500 },
      latency: { upload: { fixedMs: 50, jitterMs: 300 }, getAnalysis: { fixedMs: 10, jitterMs: 40 } },
    },
  });
  const home = join(root, name, 'home');
  const manifestPath = writeFiles(join(root, name, 'files'));

  // The researcher's part, in this process: import, confirm accounts, start; then the engine runs elsewhere.
  const opened = await openChosenStudyService({ workspaceDir: home }, database.firstAddress);
  if (!opened.ok) throw new Error(opened.error);
  const svc = opened.value.service;
  const { studyId, profileId } = await createSandboxStudy(svc, sandbox, 'Kill test');
  const plan = await svc.planImport({
    studyId: studyId,
    paths: [],
    manifestPath,
    timeZone: 'UTC',
    analyses: ['wellbeing', 'parkinsons'],
    isolateOldestSpeaker: false,
    convert: false,
  });
  if (!plan.ok) throw new Error(plan.error.message);
  const { batchId } = await svc.commitImport(plan.value);
  await svc.createAccounts(studyId);
  await svc.pauseSending(profileId); // nothing is sent from this process…
  await svc.startBatch(batchId);
  await svc.close();
  const store = await database.reader(home);
  await store.run(`DELETE FROM settings WHERE key LIKE 'queue_pause:%'`); // …the engine process sends

  const random = seededRandom(20261122);
  const count = async (sql: string) => (await store.get<{ n: number }>(sql))!.n;
  let completedBefore = 0;
  let uploadedBefore = 0;
  for (let k = 0; k < KILLS; k++) {
    const child = spawnTs(CHILD, [home], [], database.env);
    const exited = new Promise((r) => child.once('exit', r));
    await waitForLine(child, 'ready');
    // The first kills fall among the uploads, the later ones among the polls.
    await new Promise((r) => setTimeout(r, k < 5 ? 100 + random() * 900 : 500 + random() * 2_500));
    child.kill('SIGKILL'); // a no-op if the engine already finished and exited
    await exited;
    const completed = await count(`SELECT count(*) AS n FROM analyses WHERE state = 'completed'`);
    const uploaded = await count(`SELECT count(*) AS n FROM recordings WHERE upload_state = 'uploaded'`);
    expect(completed).toBeGreaterThanOrEqual(completedBefore); // a completed result is never lost
    expect(uploaded).toBeGreaterThanOrEqual(uploadedBefore);
    if (k === 0) expect(uploaded).toBeLessThan(FILES); // the first kill lands in the middle of the uploads
    completedBefore = completed;
    uploadedBefore = uploaded;
  }
  const last = spawnTs(CHILD, [home], [], database.env);
  await waitForLine(last, 'idle');

  const states = Object.fromEntries(
    (
      await store.all<{ k: string; n: number }>(
        `SELECT upload_state AS k, count(*) AS n FROM recordings GROUP BY upload_state`,
      )
    ).map((r) => [r.k, r.n]),
  );
  console.log(
    `${name}, after ${KILLS} kills:`,
    JSON.stringify(states),
    'service holds',
    sandbox.listRecordings().length,
  );
  const uploaded = states['uploaded'] ?? 0;
  const uncertain = states['upload_uncertain'] ?? 0;
  expect(uploaded + uncertain).toBe(FILES);
  expect(uploaded).toBeGreaterThan(0);
  // Each recording was sent at most once: the intent counter never passed 1, and the service holds no copy twice.
  expect(await count(`SELECT max(upload_attempts) AS n FROM recordings`)).toBe(1);
  const held = sandbox.listRecordings();
  expect(new Set(held.map((r) => `${r.accountId}:${r.audioSha256}`)).size).toBe(held.length);
  expect(sandbox.requestLog().filter((r) => r.endpoint === 'upload').length).toBeLessThanOrEqual(FILES);
  // Everything we know was accepted is on the service, and every analysis of it completed after the restarts.
  const known = await store.all<{ recording_id: string }>(
    `SELECT recording_id FROM recordings WHERE upload_state = 'uploaded'`,
  );
  const heldIds = new Set(held.map((r) => r.id));
  for (const k of known) expect(heldIds.has(k.recording_id)).toBe(true);
  expect(held.length).toBeGreaterThanOrEqual(uploaded);
  expect(held.length).toBeLessThanOrEqual(uploaded + uncertain);
  expect(await count(`SELECT count(*) AS n FROM analyses WHERE state = 'completed'`)).toBe(2 * uploaded);
  // Uncertain uploads wait for the researcher, with the reason.
  for (const r of await store.all<{ upload_error: string }>(
    `SELECT upload_error FROM recordings WHERE upload_state = 'upload_uncertain'`,
  ))
    expect(JSON.parse(r.upload_error).reason).toMatch(/stopped while this upload was being sent/);
  await store.close();
  await sandbox.close();
};

const TIME_LIMIT_MS = 240_000;
const ENGINE_CLAIM = `survives ${KILLS} SIGKILLs at random points: no double upload, no lost result, polling resumes`;

describe('on the workspace’s SQLite file', () => {
  it(
    ENGINE_CLAIM,
    () =>
      killTest('sqlite', {
        firstAddress: null,
        env: {},
        reader: async (home) => sqliteStore(openStudyDb(join(home, 'voicescope.sqlite')).db),
      }),
    TIME_LIMIT_MS,
  );
});

describeWithTool('postgresql-15', 'on a study database on a PostgreSQL 15 server', () => {
  it(
    ENGINE_CLAIM,
    async () => {
      const cluster = await startPostgresCluster();
      try {
        await killTest('postgres', {
          firstAddress: cluster.url(true),
          env: { VOICESCOPE_DATABASE_URL: cluster.url(false) },
          reader: async () => {
            const connected = await connectPostgres(cluster.address, cluster.password);
            if (!connected.ok) throw new Error(connected.error.message);
            return connected.value;
          },
        });
      } finally {
        cluster.stop();
      }
    },
    TIME_LIMIT_MS,
  );
});
