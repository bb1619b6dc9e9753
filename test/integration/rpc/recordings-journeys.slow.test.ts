/**
 * Two journeys of a study's recordings through the router of a real app host and its built-in sandbox,
 * each importing, uploading and settling a batch of its own twice (the slow tier: about 20-60 s each
 * where vitest shares the machine): "retry what is safe" (a refused upload is sent again, never an
 * upload whose outcome is unknown) and the researcher's three decisions on an uncertain upload, with the
 * usage read before and after it.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Input } from '../../../shared/contract';
import type { RecordingRow } from '../../../shared/contract/recordings.contract';
import { makeSmallStudyFolder } from '../../support/small-study-folder';
import { batchSettles, eventually, importFolder, openTestHost, startBatch, type TestHost } from './test-host';

let t: TestHost;

type PageQuery = Omit<Input<'recordings.page'>, 'studyId' | 'offset' | 'limit' | 'sort' | 'dir'>;
const JOURNEY_TIME_LIMIT_MS = 300_000;

const all = async (q: PageQuery, studyId: number): Promise<RecordingRow[]> =>
  (await t.must('recordings.page', { studyId, sort: 'id', dir: 'asc', offset: 0, limit: 100, ...q })).rows;

beforeAll(async () => {
  t = await openTestHost();
});
afterAll(async () => {
  await t?.close();
});

describe('recordings.retry (only what is safe)', () => {
  it(
    'sends again uploads the service refused without charging; leaves everything else alone',
    async () => {
      const study = await t.sandboxStudy('Refused study');
      const org = (await t.sandboxAdmin('GET', 'organisations/demo')) as Record<string, unknown>;
      const own = makeSmallStudyFolder(join(t.root, 'refused'), { seed: 1_000 });
      await t.sandboxAdmin('PUT', 'organisations/demo', { ...org, enabledAnalyses: ['wellbeing'] });
      let refusedBatch: number;
      try {
        ({ batchId: refusedBatch } = await importFolder(t, study.studyId, [own.dir], {
          manifestPath: own.manifestPath,
          convert: true,
        }));
        await startBatch(t, study.studyId, refusedBatch);
        await batchSettles(t, refusedBatch);
      } finally {
        await t.sandboxAdmin('PUT', 'organisations/demo', { ...org });
      }
      const rejected = await all({ filter: 'refused', batchId: refusedBatch }, study.studyId);
      const byService = rejected.filter((r) => r.uploadState === 'rejected');
      expect(byService).toHaveLength(11);
      for (const r of byService) {
        expect(r.canRetry).toBe(true);
        expect(r.problem!.summary).toMatch(/not enabled|not switched on|analysis/i);
      }
      // What the button will do is known before it is pressed.
      const safe = await t.must('recordings.retryable', { studyId: study.studyId, batchId: refusedBatch });
      expect(safe).toEqual({
        recordingIds: byService.map((x) => x.id).sort((a, b) => a - b),
        rejected: 11,
        lateAnalyses: 0,
      });
      expect(
        (await t.must('recordings.retryable', { studyId: study.studyId, batchId: refusedBatch + 1_000 }))
          .recordingIds,
      ).toEqual([]);
      const everything = (await all({}, study.studyId)).map((r) => r.id);
      const r = await t.must('recordings.retry', { recordingIds: everything });
      expect(r).toEqual({ retried: 11, skipped: 3 });
      const done = await batchSettles(t, refusedBatch);
      expect(done.uploads).toEqual({ uploaded: 11, refused_locally: 2, duplicate: 1 });
    },
    JOURNEY_TIME_LIMIT_MS,
  );
});

describe('uncertain uploads (the researcher decides)', () => {
  it(
    'lists each with its reason and the usage read before and after; retry never touches them; each decision does what it says',
    async () => {
      const study = await t.sandboxStudy('Uncertain study');
      // Audio of its own: the same audio as another study's would be held as a duplicate.
      const own = makeSmallStudyFolder(join(t.root, 'uncertain'), { seed: 2_000 });
      const three = [own.files.original, 'P02_w1_20260302.wav', 'P03_w1_20260303.wav'].map((f) =>
        join(own.dir, f),
      );
      await t.sandboxAdmin('PUT', 'scenario', {
        preset: 'fast',
        faults: { upload: { dropAfterProcessing: 1 } },
      });
      let uncertainBatch: number;
      try {
        ({ batchId: uncertainBatch } = await importFolder(t, study.studyId, three, {
          pattern: own.pattern,
        }));
        await startBatch(t, study.studyId, uncertainBatch);
        await eventually(
          async () => (await t.must('recordings.uncertain', { studyId: study.studyId })).length === 3,
          'three uncertain uploads',
        );
      } finally {
        await t.sandboxAdmin('PUT', 'scenario', { preset: 'fast' });
      }
      const list = await eventually(async () => {
        const l = await t.must('recordings.uncertain', { studyId: study.studyId });
        return l.every((u) => u.usageAfter !== null) ? l : undefined;
      }, 'usage read after each uncertain upload');
      for (const u of list) {
        expect(u.reason).not.toBe('');
        expect(u.usageBefore).not.toBeNull();
        expect(u.usageAfter!.uploadsRemaining).toBeLessThan(u.usageBefore!.uploadsRemaining);
      }
      const rows = await all({ filter: 'uncertain' }, study.studyId);
      expect(rows).toHaveLength(3);
      for (const r of rows)
        expect(r).toMatchObject({
          canRetry: false,
          problem: { action: expect.stringContaining('never re-sends it on its own') },
        });
      expect(await t.must('recordings.retry', { recordingIds: rows.map((r) => r.id) })).toEqual({
        retried: 0,
        skipped: 3,
      });
      expect(await t.must('recordings.retryable', { studyId: study.studyId })).toEqual({
        recordingIds: [],
        rejected: 0,
        lateAnalyses: 0,
      });
      expect(
        await t.must('recordings.uncertain', { studyId: study.studyId, batchId: uncertainBatch }),
      ).toHaveLength(3);
      expect(
        await t.must('recordings.uncertain', { studyId: study.studyId, batchId: uncertainBatch + 1_000 }),
      ).toEqual([]);

      const [again, giveUp, elsewhere] = list.map((u) => u.recordingId) as [number, number, number];
      const sandboxCopies = async () => ((await t.sandboxAdmin('GET', 'recordings')) as unknown[]).length;
      const heldBefore = await sandboxCopies();
      expect(
        await t.must('recordings.resolveUncertain', { recordingId: again, decision: 'queue_again' }),
      ).toEqual({ done: true });
      expect(
        await t.must('recordings.resolveUncertain', { recordingId: giveUp, decision: 'cancel' }),
      ).toEqual({
        done: true,
      });
      expect(
        await t.must('recordings.resolveUncertain', {
          recordingId: elsewhere,
          decision: 'mark_uploaded_elsewhere',
        }),
      ).toEqual({ done: true });
      expect(
        await t.must('recordings.resolveUncertain', { recordingId: giveUp, decision: 'queue_again' }),
      ).toEqual({ done: false });

      await batchSettles(t, uncertainBatch);
      const after = new Map(
        (await t.must('recordings.rows', { ids: [again, giveUp, elsewhere] })).map((r) => [r.id, r]),
      );
      expect(after.get(again)!.uploadState).toBe('uploaded');
      expect(await sandboxCopies()).toBe(heldBefore + 1); // sent a second time: the service now holds it twice
      expect(after.get(giveUp)).toMatchObject({
        uploadState: 'cancelled',
        problem: { summary: expect.stringContaining('gave up') },
      });
      expect(after.get(elsewhere)).toMatchObject({
        uploadState: 'cancelled',
        problem: { summary: expect.stringContaining('uploaded elsewhere') },
      });
      expect(await t.must('recordings.uncertain', { studyId: study.studyId })).toEqual([]);
    },
    JOURNEY_TIME_LIMIT_MS,
  );
});
