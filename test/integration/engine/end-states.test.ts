/**
 * Issue 13: every recording reaches an end state, and no participant gets two accounts.
 *
 * - The poll schedule counts on the workstation's clock from the moment the upload was accepted here;
 *   a service clock six minutes behind is stored as data and times nothing out.
 * - Failed polls count toward the timeout like `processing`: the recording is `timed_out`, re-checked
 *   slowly, then `unanswered` (terminal, no next poll); the researcher can ask for one more check.
 * - Invariant (polls.repo.ts strandedAnalyses): no analysis is ever unfinished without a next poll.
 * - An account request whose outcome is unknown is not repeated: the participant is "account uncertain"
 *   and the researcher decides (retry, link, leave).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { AccountRequestError } from '../../../main/api/client';
import { resolveUncertainAccount, uncertainAccountRows } from '../../../main/db/repos/account-intents.repo';
import { batchProgress } from '../../../main/db/repos/batches.repo';
import { recordingStateCounts } from '../../../main/db/repos/end-states.repo';
import { linkAccount } from '../../../main/db/repos/participants.repo';
import { strandedAnalyses } from '../../../main/db/repos/polls.repo';
import { retryRecordings } from '../../../main/db/repos/retry.repo';
import { recordAccepted } from '../../../main/db/repos/uploads.repo';
import { createMissingAccounts } from '../../../main/engine/accounts';
import { runPollStep } from '../../../main/engine/poll-step';
import { clampPollSettings, createTokenBucket, inProcessBudget } from '../../../main/jobs/poll-schedule';
import { apiError } from '../../../shared/api/api-error';
import { err } from '../../../shared/result';
import { createFakeClient, type FakeClient } from '../../support/fake-client';
import type { Store } from '../../../main/db/store/types';
import { storePerTest } from '../../support/test-engine';

const T0 = Date.UTC(2026, 2, 2, 9, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();
let clock = T0;
const now = () => clock;
const stores = storePerTest();
let store: Store;
let client: FakeClient;
const settings = clampPollSettings({
  firstPollAfterMs: 5_000,
  intervalMs: 6_000,
  jitterMs: 0,
  timeoutMs: 60_000,
  slowIntervalMs: 30_000,
  slowForMs: 120_000,
});

beforeEach(async () => {
  clock = T0;
  store = await stores.open();
  client = createFakeClient(now);
  await store.run(
    `INSERT INTO service_profiles (id, name, base_url, api_version, created_at) VALUES (1, 'p', 'http://fake.invalid', 'v1.3', 'now')`,
  );
  await store.run(`INSERT INTO studies (id, name, profile_id, created_at) VALUES (1, 's', 1, 'now')`);
  await store.run(
    `INSERT INTO batches (id, study_id, created_at, analyses, state) VALUES (1, 1, 'now', '["wellbeing"]', 'running')`,
  );
});

const addParticipant = async (id: number, accountId: string | null, files: number, state = 'pending') => {
  await store.run(
    `INSERT INTO participants (id, study_id, code, account_id, created_at) VALUES (?, 1, ?, ?, 'now')`,
    [id, `P${id}`, accountId],
  );
  const ids: number[] = [];
  for (let i = 0; i < files; i++)
    ids.push(
      (await store.get<{ id: number }>(
        `INSERT INTO recordings (study_id, participant_id, batch_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, upload_state, created_at)
         VALUES (1, ?, 1, ?, ?, 100, '2026-03-01T10:00:00.000Z', 'manifest', ?, 'now') RETURNING id`,
        [id, `/f/${id}-${i}.wav`, `${id}-${i}`.padStart(64, '0'), state],
      ))!.id,
    );
  return ids;
};

/** An upload accepted now (workstation clock) whose receipt says it was uploaded `serviceSkewMs` away. */
const accept = async (recordingId: number, serviceSkewMs: number) => {
  await store.run(`UPDATE recordings SET upload_state = 'uploading' WHERE id = ?`, [recordingId]);
  await recordAccepted(
    store,
    iso(clock),
    recordingId,
    {
      apiVersion: 'v1.3',
      recordingId: `00000000-0000-4000-8000-${String(recordingId).padStart(12, '0')}`,
      accountId: null,
      recordedAt: null,
      uploadedAt: iso(clock + serviceSkewMs),
      audio: {
        format: 'wav',
        sizeBytes: 100,
        sampleRateHz: 16_000,
        bitRateBps: 256_000,
        durationSeconds: 40,
        speechDurationSeconds: 35,
      },
      source: 'simulated',
    },
    ['wellbeing'],
    iso(clock + settings.firstPollAfterMs),
  );
};

const pollOnce = async () =>
  await runPollStep(store, client, {
    profileId: 1,
    now,
    settings,
    bucket: inProcessBudget(createTokenBucket(1000, 1000, now)),
    random: () => 0.5,
    sleep: async () => {},
  });

const analysis = async (recordingId: number) =>
  (await store.get<{ state: string; next_poll_at: string | null }>(
    `SELECT state, next_poll_at FROM analyses WHERE recording_id = ?`,
    [recordingId],
  ))!;

/** Advances the clock second by second, polling whatever is due, checking the invariant at every step. */
const runFor = async (ms: number) => {
  const end = clock + ms;
  while (clock < end) {
    clock += 1_000;
    await pollOnce();
    expect(await strandedAnalyses(store)).toEqual([]);
  }
};

describe('the poll schedule runs on the workstation clock', () => {
  it('a service clock six minutes behind does not time out a fresh upload', async () => {
    const [id] = await addParticipant(1, 'acc-1', 1, 'queued');
    await accept(id!, -6 * 60_000);
    await runFor(20_000);
    expect((await analysis(id!)).state).toBe('processing');
    // The service's own time is kept as data.
    const r = (await store.get<{ uploaded_at: string; accepted_at: string }>(
      `SELECT uploaded_at, accepted_at FROM recordings WHERE id = ?`,
      [id!],
    ))!;
    expect(Date.parse(r.accepted_at) - Date.parse(r.uploaded_at)).toBe(6 * 60_000);
    // ...and the batch shows the difference (more than a minute is said on the batch page).
    expect((await batchProgress(store, 1))!.serviceClockOffsetSeconds).toBe(-360);
  });
});

describe('failing polls end in timed_out, then unanswered', () => {
  it('5xx on every poll: timed out after the timeout, unanswered after the re-checks, never stranded', async () => {
    client.getAnalysis = async () => err(apiError('ServerError', 'getAnalysis', { status: 500 }));
    const [id] = await addParticipant(1, 'acc-1', 1, 'queued');
    await accept(id!, 0);
    await runFor(settings.timeoutMs - 2_000);
    expect((await analysis(id!)).state).toBe('processing');
    await runFor(10_000);
    expect(await analysis(id!)).toMatchObject({ state: 'timed_out' });
    expect((await analysis(id!)).next_poll_at).not.toBeNull();
    await runFor(settings.slowForMs);
    expect(await analysis(id!)).toEqual({ state: 'unanswered', next_poll_at: null });
    expect(await recordingStateCounts(store, 1)).toEqual({ unanswered: 1 });
  });

  it('an answer that keeps saying processing ends the same way', async () => {
    const [id] = await addParticipant(1, 'acc-1', 1, 'queued');
    await accept(id!, 0);
    await runFor(settings.timeoutMs + settings.slowForMs + 5_000);
    expect(await analysis(id!)).toEqual({ state: 'unanswered', next_poll_at: null });
  });

  it('the researcher can ask for one more check; a late answer is then kept', async () => {
    client.getAnalysis = async () => err(apiError('NetworkError', 'getAnalysis', {}));
    const [id] = await addParticipant(1, 'acc-1', 1, 'queued');
    await accept(id!, 0);
    await runFor(settings.timeoutMs + settings.slowForMs + 5_000);
    expect((await analysis(id!)).state).toBe('unanswered');
    expect(await retryRecordings(store, [id!], iso(clock))).toEqual({ retried: 1, skipped: 0 });
    expect(await analysis(id!)).toEqual({ state: 'timed_out', next_poll_at: iso(clock) });
    const answering = createFakeClient(now);
    answering.completeAfterMs = 0;
    client.getAnalysis = answering.getAnalysis;
    await runFor(2_000);
    expect((await analysis(id!)).state).toBe('completed');
  });

  it('one more check without an answer is unanswered again', async () => {
    client.getAnalysis = async () => err(apiError('ServerError', 'getAnalysis', { status: 503 }));
    const [id] = await addParticipant(1, 'acc-1', 1, 'queued');
    await accept(id!, 0);
    await runFor(settings.timeoutMs + settings.slowForMs + 5_000);
    await retryRecordings(store, [id!], iso(clock));
    await runFor(2_000);
    expect(await analysis(id!)).toEqual({ state: 'unanswered', next_poll_at: null });
  });
});

describe('no duplicate accounts', () => {
  const unknown = (kind: 'Timeout' | 'ServerError' | 'InvalidResponse'): AccountRequestError => ({
    ...apiError(kind, 'createAccount', kind === 'ServerError' ? { status: 502 } : {}),
    outcomeUnknown: true,
  });

  it('accounts are created only for participants with a file to upload', async () => {
    await addParticipant(1, null, 2);
    await addParticipant(2, null, 0);
    const r = await createMissingAccounts(store, client, 1, { now });
    expect(r.created.map((c) => c.code)).toEqual(['P1']);
    expect(client.calls.filter((c) => c.endpoint === 'createAccount')).toHaveLength(1);
  });

  it.each(['Timeout', 'ServerError', 'InvalidResponse'] as const)(
    'an unknown outcome (%s) is not retried: the participant is "account uncertain" and stays so',
    async (kind) => {
      await addParticipant(1, null, 1);
      client.createAccount = async () => {
        client.calls.push({ at: now(), endpoint: 'createAccount' });
        return err(unknown(kind));
      };
      const first = await createMissingAccounts(store, client, 1, { now });
      expect(first).toMatchObject({ created: [], failed: [], uncertain: [{ code: 'P1' }] });
      // Asking again (another import, another click) sends nothing for it.
      await createMissingAccounts(store, client, 1, { now });
      expect(client.calls.filter((c) => c.endpoint === 'createAccount')).toHaveLength(1);
      const [row] = await uncertainAccountRows(store, 1);
      expect(row!.uncertainty).toMatchObject({
        requestedAt: iso(T0),
        error: { kind },
        resolution: null,
      });
      expect(await store.all(`SELECT upload_state FROM recordings`)).toEqual([{ upload_state: 'pending' }]);
    },
  );

  it('the researcher decides: retry asks once more, link stores the id found, leave withdraws the files', async () => {
    const [, , three] = [
      await addParticipant(1, null, 1),
      await addParticipant(2, null, 1),
      await addParticipant(3, null, 1),
    ];
    const real = client.createAccount;
    client.createAccount = async () => err(unknown('Timeout'));
    await createMissingAccounts(store, client, 1, { now });
    expect((await uncertainAccountRows(store, 1)).map((r) => r.code)).toEqual(['P1', 'P2', 'P3']);
    client.createAccount = real;

    expect(await resolveUncertainAccount(store, 1, 'retry', iso(clock))).toBe(true);
    expect((await createMissingAccounts(store, client, 1, { now })).created.map((c) => c.code)).toEqual([
      'P1',
    ]);

    expect(await store.transaction((tx) => linkAccount(tx, 2, 'ACC-FOUND', iso(clock)))).toBe(true);
    expect(await resolveUncertainAccount(store, 3, 'leave', iso(clock))).toBe(true);
    expect((await uncertainAccountRows(store, 1)).map((r) => [r.code, r.uncertainty.resolution])).toEqual([
      ['P3', 'leave'],
    ]);
    expect(await store.get(`SELECT upload_state FROM recordings WHERE id = ?`, [three[0]!])).toEqual({
      upload_state: 'cancelled',
    });
    expect(await recordingStateCounts(store, 1)).toEqual({ cancelled: 1, queued: 2 });
    // Left alone: never asked again on its own.
    await createMissingAccounts(store, client, 1, { now });
    expect(client.calls.filter((c) => c.endpoint === 'createAccount')).toHaveLength(1);
  });

  it('a request left open by a process that stopped becomes uncertain, not repeated', async () => {
    await addParticipant(1, null, 1);
    await store.run(`UPDATE participants SET account_requested_at = ? WHERE id = 1`, [iso(T0 - 3_600_000)]);
    const r = await createMissingAccounts(store, client, 1, { now });
    expect(r.created).toEqual([]);
    expect(await uncertainAccountRows(store, 1)).toHaveLength(1);
    expect(client.calls).toHaveLength(0);
  });

  it('a certain refusal clears the intent, so the next creation asks again', async () => {
    await addParticipant(1, null, 1);
    const real = client.createAccount;
    client.createAccount = async () =>
      err({ ...apiError('RateLimited', 'createAccount', { status: 429 }), outcomeUnknown: false });
    expect((await createMissingAccounts(store, client, 1, { now })).failed).toHaveLength(1);
    client.createAccount = real;
    expect((await createMissingAccounts(store, client, 1, { now })).created).toHaveLength(1);
  });
});

describe("the service's clock, as its answers say it", () => {
  it('is read from the Date header of its latest answer, for the connection test', async () => {
    const { createServer } = await import('node:http');
    const { createApiClient } = await import('../../../main/api/client');
    const server = createServer((_, res) => {
      res.setHeader('Date', new Date(Date.now() - 6 * 60_000).toUTCString());
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ message: 'pong' }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as { port: number }).port;
      const c = createApiClient({
        profile: { baseUrl: `http://127.0.0.1:${port}`, version: 'v1.3', apiKey: 'sk-clock-1' },
      });
      expect(c.serviceClockOffsetMs?.()).toBeNull();
      expect(await c.ping()).toMatchObject({ ok: true });
      const offset = c.serviceClockOffsetMs?.() ?? 0;
      expect(offset).toBeGreaterThan(-6 * 60_000 - 2_000);
      expect(offset).toBeLessThan(-6 * 60_000 + 2_000);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
