/**
 * Answers the client accepts but the engine must still not trust blindly: a service that gives a
 * second upload the recording id of the first (the upload was charged, its results could not be told
 * apart), and a Retry-After so far away that obeying it would stall the queue or the poller for good.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApiClient } from '../../../main/api/client';
import { MAX_RETRY_AFTER_MS } from '../../../main/api/retry-policy';
import { runPollStep } from '../../../main/engine/poll-step';
import { MAX_RATE_LIMIT_PAUSE_MS, uploadOne, type QueuedRecording } from '../../../main/engine/upload-step';
import { clampPollSettings } from '../../../main/jobs/poll-schedule';
import { recordingV13 } from '../../fixtures/wire-examples';
import { startRawReplyServer, type RawReplyServer } from '../../support/raw-reply-server';
import type { Store } from '../../../main/db/store/types';
import { storePerTest } from '../../support/test-engine';

const AT = '2026-03-02T10:00:00.000Z';
const ACCOUNT = recordingV13.account_id;
let srv: RawReplyServer;
const root = mkdtempSync(join(tmpdir(), 'vs-adversarial-'));
const audio = join(root, 'r.wav');
beforeAll(async () => {
  srv = await startRawReplyServer();
  writeFileSync(audio, Buffer.alloc(2_000, 3));
});
afterAll(async () => {
  await srv.close();
  rmSync(root, { recursive: true, force: true });
});

const client = () =>
  createApiClient({
    profile: { baseUrl: srv.url, version: 'v1.3', apiKey: 'sk-adv-1' },
    sleep: async () => {},
  });
const json = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  kind: 'reply' as const,
  status,
  headers: { 'Content-Type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

const stores = storePerTest();

/** A test's own store with study 1, participant 1 and `queued` recordings waiting to be sent (their ids). */
const seeded = async (queued: number): Promise<{ store: Store; ids: number[] }> => {
  const store = await stores.open();
  await store.run(
    `INSERT INTO service_profiles (id, name, base_url, api_version, created_at) VALUES (1, 'p', ?, 'v1.3', ?)`,
    [srv.url, AT],
  );
  await store.run(`INSERT INTO studies (id, name, profile_id, created_at) VALUES (1, 's', 1, ?)`, [AT]);
  await store.run(
    `INSERT INTO participants (id, study_id, code, account_id, created_at) VALUES (1, 1, 'P1', ?, ?)`,
    [ACCOUNT, AT],
  );
  await store.run(
    `INSERT INTO batches (id, study_id, created_at, analyses, state) VALUES (1, 1, ?, '["wellbeing"]', 'running')`,
    [AT],
  );
  const ids: number[] = [];
  for (let i = 0; i < queued; i++)
    ids.push(
      (await store.get<{ id: number }>(
        `INSERT INTO recordings (study_id, participant_id, batch_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, upload_state, created_at)
         VALUES (1, 1, 1, ?, ?, 2000, ?, 'manifest', 'queued', ?) RETURNING id`,
        [audio, `${'a'.repeat(63)}${i}`, AT, AT],
      ))!.id,
    );
  return { store, ids };
};
const queued = (id: number): QueuedRecording => ({
  id,
  studyId: 1,
  batchId: 1,
  path: audio,
  contentSha256: 'a'.repeat(64),
  accountId: ACCOUNT,
  recordedAt: recordingV13.recorded_at,
  analyses: ['wellbeing'],
  isolateOldestSpeaker: false,
});
const row = async (store: Store, id: number) =>
  (await store.get<{
    upload_state: string;
    upload_attempts: number;
    recording_id: string | null;
    upload_error: string | null;
  }>(`SELECT upload_state, upload_attempts, recording_id, upload_error FROM recordings WHERE id = ?`, [id]))!;

it("a second upload answered with the first one's recording id is held as uncertain with the reason; the first keeps its id", async () => {
  const { store, ids } = await seeded(2);
  const [a, b] = ids as [number, number];
  srv.answer(json(200, recordingV13));
  expect(await uploadOne(store, client(), queued(a), { now: Date.now, firstPollAfterMs: 15_000 })).toEqual({
    kind: 'accepted',
  });
  expect(await uploadOne(store, client(), queued(b), { now: Date.now, firstPollAfterMs: 15_000 })).toEqual({
    kind: 'uncertain',
  });
  expect(await row(store, a)).toMatchObject({
    upload_state: 'uploaded',
    recording_id: recordingV13.recording_id,
  });
  const second = await row(store, b);
  expect(second).toMatchObject({ upload_state: 'upload_uncertain', upload_attempts: 1, recording_id: null });
  expect(JSON.parse(second.upload_error!).reason).toMatch(/id of another recording .*cannot be told apart/);
  expect(await store.get(`SELECT count(*) n FROM analyses WHERE recording_id = ?`, [b])).toEqual({ n: 0 });
});

it('a rate limit that asks for a wait of years pauses sending for 15 minutes at most, and the file goes back to the queue uncharged', async () => {
  const { store, ids } = await seeded(1);
  const [a] = ids as [number];
  srv.answer(
    json(
      429,
      { error: { type: 'RateLimitExceeded', message: 'slow down' } },
      { 'Retry-After': String(10 * 365 * 86_400) },
    ),
  );
  const t = Date.now();
  const out = await uploadOne(store, client(), queued(a), {
    now: () => t,
    firstPollAfterMs: 15_000,
  });
  expect(out.kind).toBe('paused');
  if (out.kind === 'paused') {
    expect(out.pause.error.retryAfterMs).toBe(MAX_RETRY_AFTER_MS); // the client reads any wait over a day as a day
    expect(out.pause.untilMs).toBe(t + MAX_RATE_LIMIT_PAUSE_MS);
  }
  expect(await row(store, a)).toMatchObject({ upload_state: 'queued', upload_attempts: 0 });
});

it('the same far-away Retry-After on a poll holds the poller back for 15 minutes at most', async () => {
  const { store, ids } = await seeded(1);
  const [a] = ids as [number];
  await store.run(
    `UPDATE recordings SET upload_state = 'uploaded', recording_id = ?, uploaded_at = ? WHERE id = ?`,
    [recordingV13.recording_id, new Date().toISOString(), a],
  );
  await store.run(
    `INSERT INTO analyses (recording_id, type, state, requested_at, next_poll_at) VALUES (?, 'wellbeing', 'processing', ?, '2000-01-01T00:00:00Z')`,
    [a, AT],
  );
  srv.answer(
    json(
      429,
      { error: { type: 'RateLimitExceeded', message: 'slow down' } },
      { 'Retry-After': String(10 * 365 * 86_400) },
    ),
  );
  const pauses: number[] = [];
  const t = Date.now();
  const res = await runPollStep(store, client(), {
    profileId: 1,
    now: () => t,
    settings: clampPollSettings({}),
    random: () => 0.5,
    sleep: async () => {},
    bucket: {
      reserve: () => Promise.resolve(0),
      refund: () => Promise.resolve(),
      pauseUntil: (ms) => {
        pauses.push(ms);
      },
    },
  });
  expect(res).toMatchObject({ polled: 0, failed: 1, writeError: null });
  expect(pauses).toEqual([t + MAX_RATE_LIMIT_PAUSE_MS]);
});
