/**
 * A study's recordings through the router of a real app host and its built-in sandbox: the paged,
 * sorted, filtered and searched table with each file's problem in words; a late result asked for again;
 * and sending a held duplicate anyway. The journeys of "retry what is safe" and of the researcher's
 * decisions on uncertain uploads are in recordings-journeys.slow.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Input } from '../../../shared/contract';
import type { RecordingRow } from '../../../shared/contract/recordings.contract';
import { makeSmallStudyFolder, type SmallStudyFolder } from '../../support/small-study-folder';
import { batchSettles, eventually, importFolder, openTestHost, startBatch, type TestHost } from './test-host';

let t: TestHost;
let folder: SmallStudyFolder;
let studyId: number;
let batchId: number;

type PageQuery = Omit<Input<'recordings.page'>, 'studyId' | 'offset' | 'limit' | 'sort' | 'dir'> &
  Partial<Pick<Input<'recordings.page'>, 'sort' | 'dir' | 'offset' | 'limit'>>;
/**
 * For a hang, not for speed: the journeys that import, upload and settle a batch take 5-25 s on a quiet
 * machine and over 90 s where vitest gets the cycles the window journeys leave.
 */
const JOURNEY_TIME_LIMIT_MS = 300_000;

const page = (q: PageQuery = {}, sid = studyId) =>
  t.must('recordings.page', { studyId: sid, sort: 'id', dir: 'asc', offset: 0, limit: 100, ...q });
const all = async (q: PageQuery = {}, sid = studyId): Promise<RecordingRow[]> => (await page(q, sid)).rows;

beforeAll(async () => {
  t = await openTestHost();
  folder = makeSmallStudyFolder(t.root);
  ({ studyId } = await t.sandboxStudy('Recordings study'));
  ({ batchId } = await importFolder(t, studyId, [folder.dir], {
    manifestPath: folder.manifestPath,
    convert: true,
  }));
  await startBatch(t, studyId, batchId);
  await batchSettles(t, batchId);
}, JOURNEY_TIME_LIMIT_MS);
afterAll(async () => {
  await t?.close();
});

describe('recordings.page', () => {
  it('pages the study: total, a window of rows, every requested analysis with its state, simulated results marked', async () => {
    const first = await page({ limit: 5 });
    expect(first.total).toBe(14);
    expect(first.rows).toHaveLength(5);
    const second = await page({ offset: 5, limit: 5 });
    expect(second.rows.map((r) => r.id)).not.toContain(first.rows[0]!.id);
    const uploaded = (await all()).filter((r) => r.uploadState === 'uploaded');
    expect(uploaded).toHaveLength(11);
    for (const r of uploaded) {
      expect(r.analyses).toEqual([
        { type: 'wellbeing', state: 'completed' },
        { type: 'parkinsons', state: 'completed' },
      ]);
      expect(r).toMatchObject({
        simulated: true,
        apiVersion: 'v1.3',
        problem: null,
        canRetry: false,
        batchId,
        recordedAtSource: 'manifest',
      });
    }
    expect(uploaded.find((r) => r.fileName === folder.files.stereo)).toMatchObject({
      converted: true,
      verdictStatus: 'will_convert',
    });
    // Files never sent show the analyses their batch asked for, awaiting upload.
    expect((await all({ filter: 'refused' }))[0]!.analyses).toEqual([
      { type: 'wellbeing', state: 'awaiting_upload' },
      { type: 'parkinsons', state: 'awaiting_upload' },
    ]);
  });

  it('filters: completed, needs attention, refused, duplicates, in progress, uncertain; by batch and by participant', async () => {
    const count = async (q: PageQuery) => (await page({ ...q, limit: 1 })).total;
    expect(await count({ filter: 'all' })).toBe(14);
    expect(await count({ filter: 'completed' })).toBe(11);
    expect(await count({ filter: 'refused' })).toBe(2);
    expect(await count({ filter: 'duplicates' })).toBe(1);
    expect(await count({ filter: 'needs_attention' })).toBe(3);
    expect(await count({ filter: 'in_progress' })).toBe(0);
    expect(await count({ filter: 'uncertain' })).toBe(0);
    expect(await count({ batchId })).toBe(14);
    expect(await count({ batchId: batchId + 100 })).toBe(0);
    const p01 = (await all()).find((r) => r.participantCode === 'P01')!.participantId;
    const mine = await all({ participantId: p01 });
    expect(mine.length).toBeGreaterThan(0);
    expect(new Set(mine.map((r) => r.participantCode))).toEqual(new Set(['P01']));
  });

  it('says what happened and what to do for each file that needs the researcher', async () => {
    const byName = new Map((await all({ filter: 'needs_attention' })).map((r) => [r.fileName, r]));
    expect(byName.get(folder.files.short)).toMatchObject({
      uploadState: 'refused_locally',
      canRetry: false,
      problem: {
        summary: expect.stringContaining('requires at least 30 s'),
        action: expect.stringContaining('Record a longer session'),
      },
    });
    expect(byName.get(folder.files.text)!.problem!.summary).not.toBe('');
    expect(byName.get(folder.files.copy)).toMatchObject({
      uploadState: 'duplicate',
      problem: { summary: expect.stringContaining('already imported for this participant') },
    });
  });

  it('searches participant codes, file names and sessions (LIKE wildcards taken literally)', async () => {
    expect(new Set((await all({ search: 'P02' })).map((r) => r.participantCode))).toEqual(new Set(['P02']));
    expect((await all({ search: 'stereo' })).map((r) => r.fileName)).toEqual([folder.files.stereo]);
    expect((await all({ search: 'w9' })).map((r) => r.fileName)).toEqual([folder.files.copy]);
    expect(await all({ search: '%' })).toEqual([]);
    expect(await all({ search: '_' })).toHaveLength(14); // every file name has an underscore
  });

  it('sorts by participant, file, recording time and state, both ways, with the id breaking ties', async () => {
    const codes = (await all({ sort: 'participant', dir: 'asc' })).map((r) => r.participantCode);
    expect(codes).toEqual([...codes].sort());
    const files = (await all({ sort: 'file', dir: 'desc' })).map((r) => r.fileName);
    expect(files).toEqual([...files].sort().reverse());
    const times = (await all({ sort: 'recorded_at', dir: 'asc' })).map((r) => r.recordedAt);
    expect(times).toEqual([...times].sort());
    const states = (await all({ sort: 'state', dir: 'asc' })).map((r) => r.uploadState);
    expect(states).toEqual([...states].sort());
    const ids = (await all({ sort: 'participant', dir: 'asc' }))
      .filter((r) => r.participantCode === 'P01')
      .map((r) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('recordings.rows gives the rows the engine just changed, by id', async () => {
    const some = (await all()).slice(2, 5);
    const rows = await t.must('recordings.rows', { ids: some.map((r) => r.id) });
    expect(rows.map((r) => r.id).sort()).toEqual(some.map((r) => r.id).sort());
    expect(await t.must('recordings.rows', { ids: [] })).toEqual([]);
  });
});

describe('recordings.insistDuplicate', () => {
  it(
    'sends a held duplicate once the researcher insists: its batch runs again and it is uploaded',
    async () => {
      const dup = (await all({ filter: 'duplicates' }))[0]!;
      expect(await t.must('recordings.insistDuplicate', { recordingId: dup.id })).toEqual({ done: true });
      expect(await t.must('recordings.insistDuplicate', { recordingId: dup.id })).toEqual({ done: false });
      await eventually(
        async () => (await t.must('recordings.rows', { ids: [dup.id] }))[0]!.uploadState === 'uploaded',
        'the duplicate to be uploaded',
      );
      expect((await batchSettles(t, batchId)).state).toBe('finished');
    },
    JOURNEY_TIME_LIMIT_MS,
  );
});

describe('late results', () => {
  it(
    'a timed-out analysis needs attention, is safe to ask for again, and is asked for now',
    async () => {
      const row = (await all({ filter: 'completed', limit: 1 }))[0]!;
      // As the poller leaves a type after five minutes without a result (set directly: the test cannot wait five minutes).
      await t.store.run(
        `UPDATE analyses SET state = 'timed_out', next_poll_at = '2099-01-01T00:00:00Z' WHERE recording_id = ? AND type = 'parkinsons'`,
        [row.id],
      );
      const late = (await t.must('recordings.rows', { ids: [row.id] }))[0]!;
      expect(late).toMatchObject({
        canRetry: true,
        problem: { summary: "No Parkinson's result after five minutes." },
      });
      expect((await all({ filter: 'needs_attention' })).map((r) => r.id)).toContain(row.id);
      expect(await t.must('recordings.retryable', { studyId, batchId })).toEqual({
        recordingIds: [row.id],
        rejected: 0,
        lateAnalyses: 1,
      });
      expect(await t.must('recordings.retry', { recordingIds: [row.id] })).toEqual({
        retried: 1,
        skipped: 0,
      });
      await eventually(
        async () =>
          (await t.must('recordings.rows', { ids: [row.id] }))[0]!.analyses.every(
            (a) => a.state === 'completed',
          ),
        'the late result to be collected',
      );
    },
    JOURNEY_TIME_LIMIT_MS,
  );
});
