/**
 * The engine process is killed (SIGKILL: no clean-up of any kind) at random points of a batch, many
 * times, and started again. Nothing may be uploaded twice, no completed result may be lost, an upload
 * cut off mid-way becomes `upload_uncertain` (never re-sent on its own), and polling resumes from the
 * schedule stored in the database.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openStudyDb } from '../../../main/db/open';
import { createSandboxStudy, startLabSandbox } from '../../support/lab-sandbox';
import { openStudyService } from '../../../main/services/study-service';
import { makeWav } from '../../fixtures/audio';
import { seededRandom } from '../../fixtures/audio';
import { spawnTs, waitForLine } from '../../support/spawn';

const CHILD = join(import.meta.dirname, '../../support/engine-child.ts');
const FILES = 60;
const KILLS = 10;
const root = mkdtempSync(join(tmpdir(), 'vs-kill-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it(`survives ${KILLS} SIGKILLs at random points: no double upload, no lost result, polling resumes`, async () => {
  // Uploads take 50–350 ms, so kills land before, during and after requests.
  const sandbox = await startLabSandbox({
    scenario: {
      preset: 'fast',
      processingMs: { wellbeing: 1_000, parkinsons: 1_500 },
      latency: { upload: { fixedMs: 50, jitterMs: 300 }, getAnalysis: { fixedMs: 10, jitterMs: 40 } },
    },
  });

  const home = join(root, 'home');
  const dir = join(root, 'files');
  const rows = ['file,participant,recorded_at'];
  (await import('node:fs')).mkdirSync(dir);
  for (let i = 0; i < FILES; i++) {
    writeFileSync(join(dir, `r${i}.wav`), makeWav({ seconds: 44, speechSeconds: 36, seed: 300 + i }));
    rows.push(`r${i}.wav,P-${i % 6},2026-01-${String(1 + (i % 28)).padStart(2, '0')}T10:00:00Z`);
  }
  writeFileSync(join(dir, 'manifest.csv'), rows.join('\n'));

  // The researcher's part, in this process: import, confirm accounts, start; then the engine runs elsewhere.
  const svc = openStudyService({ workspaceDir: home });
  const { studyId, profileId } = await createSandboxStudy(svc, sandbox, 'Kill test');
  const plan = await svc.planImport({
    studyId: studyId,
    paths: [],
    manifestPath: join(dir, 'manifest.csv'),
    timeZone: 'UTC',
    analyses: ['wellbeing', 'parkinsons'],
    isolateOldestSpeaker: false,
    convert: false,
  });
  if (!plan.ok) throw new Error(plan.error.message);
  const { batchId } = await svc.commitImport(plan.value);
  await svc.createAccounts(studyId);
  svc.pauseSending(profileId); // nothing is sent from this process…
  await svc.startBatch(batchId);
  await svc.close();
  const db = openStudyDb(join(home, 'voicescope.sqlite')).db;
  db.prepare(`DELETE FROM settings WHERE key LIKE 'queue_pause:%'`).run(); // …the engine process sends

  const random = seededRandom(20261122);
  const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
  let completedBefore = 0;
  let uploadedBefore = 0;
  for (let k = 0; k < KILLS; k++) {
    const child = spawnTs(CHILD, [home]);
    const exited = new Promise((r) => child.once('exit', r));
    await waitForLine(child, 'ready');
    // The first kills fall among the uploads, the later ones among the polls.
    await new Promise((r) => setTimeout(r, k < 5 ? 100 + random() * 900 : 500 + random() * 2_500));
    child.kill('SIGKILL'); // a no-op if the engine already finished and exited
    await exited;
    const completed = count(`SELECT count(*) n FROM analyses WHERE state = 'completed'`);
    const uploaded = count(`SELECT count(*) n FROM recordings WHERE upload_state = 'uploaded'`);
    expect(completed).toBeGreaterThanOrEqual(completedBefore); // a completed result is never lost
    expect(uploaded).toBeGreaterThanOrEqual(uploadedBefore);
    if (k === 0) expect(uploaded).toBeLessThan(FILES); // the first kill lands in the middle of the uploads
    completedBefore = completed;
    uploadedBefore = uploaded;
  }
  const last = spawnTs(CHILD, [home]);
  await waitForLine(last, 'idle');

  const states = Object.fromEntries(
    (
      db.prepare(`SELECT upload_state k, count(*) n FROM recordings GROUP BY 1`).all() as {
        k: string;
        n: number;
      }[]
    ).map((r) => [r.k, r.n]),
  );
  console.log(
    `after ${KILLS} kills:`,
    JSON.stringify(states),
    'service holds',
    sandbox.listRecordings().length,
  );
  const uploaded = states['uploaded'] ?? 0;
  const uncertain = states['upload_uncertain'] ?? 0;
  expect(uploaded + uncertain).toBe(FILES);
  expect(uploaded).toBeGreaterThan(0);
  // Each recording was sent at most once: the intent counter never passed 1, and the service holds no copy twice.
  expect(count(`SELECT max(upload_attempts) n FROM recordings`)).toBe(1);
  const held = sandbox.listRecordings();
  expect(new Set(held.map((r) => `${r.accountId}:${r.audioSha256}`)).size).toBe(held.length);
  expect(sandbox.requestLog().filter((r) => r.endpoint === 'upload').length).toBeLessThanOrEqual(FILES);
  // Everything we know was accepted is on the service, and every analysis of it completed after the restarts.
  const known = db.prepare(`SELECT recording_id FROM recordings WHERE upload_state = 'uploaded'`).all() as {
    recording_id: string;
  }[];
  const heldIds = new Set(held.map((r) => r.id));
  for (const k of known) expect(heldIds.has(k.recording_id)).toBe(true);
  expect(held.length).toBeGreaterThanOrEqual(uploaded);
  expect(held.length).toBeLessThanOrEqual(uploaded + uncertain);
  expect(count(`SELECT count(*) n FROM analyses WHERE state = 'completed'`)).toBe(2 * uploaded);
  // Uncertain uploads wait for the researcher, with the reason.
  for (const r of db
    .prepare(`SELECT upload_error FROM recordings WHERE upload_state = 'upload_uncertain'`)
    .all() as { upload_error: string }[]) {
    expect(JSON.parse(r.upload_error).reason).toMatch(/stopped while this upload was being sent/);
  }
  db.close();
  await sandbox.close();
}, 240_000);
