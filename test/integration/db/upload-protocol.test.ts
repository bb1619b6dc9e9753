import { beforeEach, describe, expect, it } from 'vitest';
import { apiError } from '../../../shared/api/api-error';
import type { RecordingAnalysis, RecordingReceipt } from '../../../shared/api/domain';
import {
  beginUpload,
  recordAccepted,
  recordRejected,
  recordUncertain,
  recoverInterruptedUploads,
  resolveUncertain,
} from '../../../main/db/repos/uploads.repo';
import { MAX_CONFIRMATIONS, storeAnalysis } from '../../../main/db/repos/results.repo';
import { dqFlag } from '../../../shared/api/data-quality';
import type { Store } from '../../../main/db/store/types';
import { storePerTest } from '../../support/test-engine';

const AT = '2026-03-02T10:00:00.000Z';
const stores = storePerTest();
let store: Store;
let recId: number;

const seed = async (q: Store): Promise<number> => {
  await q.run(
    `INSERT INTO service_profiles (id, name, base_url, api_version, created_at) VALUES (1, 'sandbox', 'http://127.0.0.1:1', 'v1.3', ?)`,
    [AT],
  );
  await q.run(`INSERT INTO studies (id, name, profile_id, created_at) VALUES (1, 'Study', 1, ?)`, [AT]);
  await q.run(
    `INSERT INTO participants (id, study_id, code, account_id, created_at) VALUES (1, 1, 'P-001', '7d9e6f5a-1b2c-4d3e-9f8a-7b6c5d4e3f2a', ?)`,
    [AT],
  );
  await q.run(
    `INSERT INTO batches (id, study_id, created_at, analyses, state) VALUES (1, 1, ?, '["wellbeing","parkinsons"]', 'running')`,
    [AT],
  );
  return (await q.get<{ id: number }>(
    `INSERT INTO recordings (study_id, participant_id, batch_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, upload_state, created_at)
     VALUES (1, 1, 1, '/data/p001-w1.wav', 'abc123', 1000, '2026-03-01T09:00:00Z', 'manifest', 'queued', ?) RETURNING id`,
    [AT],
  ))!.id;
};

const intent = () => ({
  recordingId: recId,
  contentSha256: 'abc123',
  accountId: '7d9e6f5a-1b2c-4d3e-9f8a-7b6c5d4e3f2a',
  analyses: ['wellbeing', 'parkinsons'] as const,
  isolateOldestSpeaker: false,
});
const state = async () =>
  (await store.get<{ upload_state: string }>(`SELECT upload_state FROM recordings WHERE id = ?`, [recId]))!
    .upload_state;
const events = async () =>
  (await store.all<{ kind: string }>(`SELECT kind FROM event_log ORDER BY id`)).map((e) => e.kind);

const receipt: RecordingReceipt = {
  apiVersion: 'v1.3',
  recordingId: '3f2b8c1e-9a4d-4c2b-8e1f-0a1b2c3d4e5f',
  accountId: null,
  recordedAt: null,
  uploadedAt: '2026-03-02T10:00:01Z',
  audio: {
    format: 'wav',
    sizeBytes: 1000,
    sampleRateHz: 16000,
    bitRateBps: 256000,
    durationSeconds: 60,
    speechDurationSeconds: 45,
  },
  source: 'simulated',
};

beforeEach(async () => {
  store = await stores.open();
  recId = await seed(store);
});

describe('write-ahead upload protocol', () => {
  it('the intent is committed before sending, and only once', async () => {
    expect(await beginUpload(store, AT, intent())).toBe(true);
    expect(await state()).toBe('uploading');
    expect(await beginUpload(store, AT, intent())).toBe(false);
    expect(await events()).toEqual(['upload_intent']);
  });

  it('a file whose batch was paused or cancelled after it was picked is not begun', async () => {
    for (const st of ['paused', 'cancelled', 'open']) {
      await store.run(`UPDATE batches SET state = ? WHERE id = 1`, [st]);
      expect(await beginUpload(store, AT, intent()), st).toBe(false);
      expect(await state()).toBe('queued');
    }
    await store.run(`UPDATE batches SET state = 'running' WHERE id = 1`);
    expect(await beginUpload(store, AT, intent())).toBe(true);
  });

  it('an accepted upload stores the receipt and starts polling each requested type', async () => {
    await beginUpload(store, AT, intent());
    await recordAccepted(store, AT, recId, receipt, ['wellbeing', 'parkinsons'], '2026-03-02T10:00:16Z');
    expect(await state()).toBe('uploaded');
    expect(await store.all(`SELECT type, state, next_poll_at FROM analyses ORDER BY type`)).toEqual([
      { type: 'parkinsons', state: 'processing', next_poll_at: '2026-03-02T10:00:16Z' },
      { type: 'wellbeing', state: 'processing', next_poll_at: '2026-03-02T10:00:16Z' },
    ]);
    expect(await store.get(`SELECT recording_id, result_source FROM recordings`)).toEqual({
      recording_id: receipt.recordingId,
      result_source: 'simulated',
    });
  });

  it('a rejected upload keeps the typed error', async () => {
    await beginUpload(store, AT, intent());
    await recordRejected(store, AT, recId, apiError('UploadLimitExceeded', 'upload', { status: 403 }));
    expect(await state()).toBe('rejected');
    expect(
      JSON.parse(
        (await store.get<{ upload_error: string }>(`SELECT upload_error FROM recordings`))!.upload_error,
      ).kind,
    ).toBe('UploadLimitExceeded');
  });

  it('an uncertain upload waits for the researcher; only an explicit decision queues it again', async () => {
    await beginUpload(store, AT, intent());
    await recordUncertain(store, AT, recId, apiError('Timeout', 'upload'), 'no answer in time');
    expect(await state()).toBe('upload_uncertain');
    expect(await beginUpload(store, AT, intent())).toBe(false);
    expect(await resolveUncertain(store, recId, 'queue_again')).toBe(true);
    expect(await beginUpload(store, AT, intent())).toBe(true);
  });

  it("an outcome written a second time (the first commit's answer lost with the connection) changes nothing", async () => {
    await beginUpload(store, AT, intent());
    await recordAccepted(store, AT, recId, receipt, ['wellbeing', 'parkinsons'], '2026-03-02T10:00:16Z');
    await store.run(`UPDATE analyses SET state = 'completed' WHERE type = 'wellbeing'`);
    await recordAccepted(store, AT, recId, receipt, ['wellbeing', 'parkinsons'], '2026-03-02T10:05:00Z');
    await recordRejected(store, AT, recId, apiError('UploadLimitExceeded', 'upload', { status: 403 }));
    await recordUncertain(store, AT, recId, null, 'no answer in time');
    expect(await state()).toBe('uploaded');
    expect(await store.all(`SELECT type, state, next_poll_at FROM analyses ORDER BY type`)).toEqual([
      { type: 'parkinsons', state: 'processing', next_poll_at: '2026-03-02T10:00:16Z' },
      { type: 'wellbeing', state: 'completed', next_poll_at: '2026-03-02T10:00:16Z' },
    ]);
    expect(await events()).toEqual(['upload_intent', 'upload_accepted']);
  });

  it('an upload interrupted by a crash after its intent becomes uncertain on the next start, never re-sent', async () => {
    await beginUpload(store, AT, intent());
    expect(await recoverInterruptedUploads(store, AT)).toEqual([recId]);
    expect(await state()).toBe('upload_uncertain');
    expect(await recoverInterruptedUploads(store, AT)).toEqual([]);
    expect(await events()).toEqual(['upload_intent', 'upload_interrupted']);
  });
});

describe('storing results', () => {
  const result = (
    status: 'processing' | 'completed' | 'error',
    values: Record<string, number | string> = {},
  ): RecordingAnalysis => ({
    apiVersion: 'v1.3',
    recordingId: receipt.recordingId,
    accountId: 'a',
    recordedAt: '2026-03-01T09:00:00Z',
    uploadedAt: null,
    audio: receipt.audio,
    source: 'simulated',
    outcomes: [
      { type: 'wellbeing', status: 'completed', values: { wb_stress: 'low' } },
      { type: 'parkinsons', status, values },
    ],
  });

  beforeEach(async () => {
    await beginUpload(store, AT, intent());
    await recordAccepted(store, AT, recId, receipt, ['wellbeing', 'parkinsons'], AT);
  });

  it('completed types store their values; processing types only reschedule', async () => {
    await storeAnalysis(store, AT, recId, result('processing'), '2026-03-02T10:00:40Z');
    expect(await store.all(`SELECT type, state, polls, next_poll_at FROM analyses ORDER BY type`)).toEqual([
      { type: 'parkinsons', state: 'processing', polls: 1, next_poll_at: '2026-03-02T10:00:40Z' },
      { type: 'wellbeing', state: 'completed', polls: 1, next_poll_at: null },
    ]);
    await storeAnalysis(store, AT, recId, result('completed', { pd_hnr: 17, pd_risk_band: 'low' }), null);
    expect(
      await store.all(
        `SELECT measure_key, value_num, value_text, participant_id FROM measure_values ORDER BY measure_key`,
      ),
    ).toEqual([
      { measure_key: 'pd_hnr', value_num: 17, value_text: null, participant_id: 1 },
      { measure_key: 'pd_risk_band', value_num: null, value_text: 'low', participant_id: 1 },
      { measure_key: 'wb_stress', value_num: null, value_text: 'low', participant_id: 1 },
    ]);
  });

  it("an answer's data-quality flags are written in its transaction: kept with it, or undone with it", async () => {
    const flagged = () =>
      store.all(`SELECT origin, analysis_type, code FROM data_quality_flags WHERE origin = 'poll'`);
    const answer = (): RecordingAnalysis => ({
      ...result('processing'),
      flags: [dqFlag('number_expected', 'metadata.duration', 'x', 'a number', [])],
    });
    await expect(
      store.transaction(async (tx) => {
        await storeAnalysis(tx, AT, recId, answer(), '2026-03-02T10:00:40Z');
        throw new Error('the verdict could not be written');
      }),
    ).rejects.toThrow('the verdict could not be written');
    expect(await flagged()).toEqual([]);
    expect(await store.get(`SELECT sum(polls) AS n FROM analyses`)).toEqual({ n: 0 });
    await store.transaction((tx) => storeAnalysis(tx, AT, recId, answer(), '2026-03-02T10:00:40Z'));
    expect(await flagged()).toEqual([{ origin: 'poll', analysis_type: null, code: 'number_expected' }]);
  });

  it('a final state is never overwritten by a later poll', async () => {
    await storeAnalysis(store, AT, recId, result('error'), null);
    await storeAnalysis(store, AT, recId, result('completed', { pd_hnr: 17 }), null);
    expect(await store.get(`SELECT state FROM analyses WHERE type = 'parkinsons'`)).toEqual({
      state: 'error',
    });
    expect(await store.get(`SELECT count(*) n FROM measure_values WHERE measure_key = 'pd_hnr'`)).toEqual({
      n: 0,
    });
  });

  describe('an answer with odd values is asked for again before it becomes final', () => {
    const NEXT = '2026-03-02T10:00:40Z';
    const odd = (value: number | string, raw: string): RecordingAnalysis => {
      const r = result('completed', { pd_hnr: value });
      return {
        ...r,
        outcomes: [
          r.outcomes[0]!,
          {
            ...r.outcomes[1]!,
            raw,
            receivedStatus: 'completed',
            flags: [dqFlag('number_expected', 'parkinsons.pd_hnr', value, 'a number', ['pd_hnr'])],
          },
        ],
      };
    };
    const parkinsons = async () =>
      (await store.get<{ state: string; next_poll_at: string | null; confirmations: number }>(
        `SELECT state, next_poll_at, confirmations FROM analyses WHERE type = 'parkinsons'`,
      ))!;
    const hnr = () =>
      store.get(`SELECT value_num, value_text FROM measure_values WHERE measure_key = 'pd_hnr'`);

    it('a garbled answer followed by a clean one: the clean one is the result', async () => {
      await storeAnalysis(store, AT, recId, odd('17x', '{"pd_hnr":"17x"}'), NEXT);
      expect(await parkinsons()).toEqual({ state: 'processing', next_poll_at: NEXT, confirmations: 1 });
      expect(await hnr()).toBeUndefined();
      await storeAnalysis(store, AT, recId, result('completed', { pd_hnr: 17 }), NEXT);
      expect(await parkinsons()).toMatchObject({ state: 'completed', next_poll_at: null });
      expect(await hnr()).toEqual({ value_num: 17, value_text: null });
    });

    it('the same odd answer twice is the service speaking: kept as received, with its flag', async () => {
      await storeAnalysis(store, AT, recId, odd('17x', '{"pd_hnr":"17x"}'), NEXT);
      await storeAnalysis(store, AT, recId, odd('17x', '{"pd_hnr":"17x"}'), NEXT);
      expect(await parkinsons()).toMatchObject({ state: 'completed', confirmations: 1 });
      expect(await hnr()).toEqual({ value_num: null, value_text: '17x' });
    });

    it(`odd answers that keep changing: after ${MAX_CONFIRMATIONS} the latest is kept, never discarded`, async () => {
      for (let i = 0; i < MAX_CONFIRMATIONS; i++) {
        await storeAnalysis(store, AT, recId, odd(`${i}x`, `{"pd_hnr":"${i}x"}`), NEXT);
        expect((await parkinsons()).state).toBe('processing');
      }
      await storeAnalysis(store, AT, recId, odd('last', '{"pd_hnr":"last"}'), NEXT);
      expect(await parkinsons()).toMatchObject({ state: 'completed', confirmations: MAX_CONFIRMATIONS });
      expect(await hnr()).toEqual({ value_num: null, value_text: 'last' });
    });

    it('with no further poll scheduled, an odd answer is final at once', async () => {
      await storeAnalysis(store, AT, recId, odd('17x', '{"pd_hnr":"17x"}'), null);
      expect(await parkinsons()).toMatchObject({ state: 'completed', confirmations: 0 });
    });
  });
});
