/**
 * Recordings: the window's pages and rows, one recording's facts, retrying what is safe, and the
 * researcher's decisions on uncertain uploads and duplicates.
 */
import type { ApiError } from '../../shared/api/api-error';
import type { StoredUploadError } from '../../shared/recording-problems';
import type { UncertainUpload } from '../../shared/study';
import { reopenBatchesOf } from '../db/repos/batches.repo';
import { appendEvent } from '../db/repos/event-log.repo';
import { recordingFacts, type RecordingFacts } from '../db/repos/recording-detail.repo';
import {
  recordingPage,
  recordingRows,
  type RecordingQuery,
  type RecordingView,
} from '../db/repos/recordings-view.repo';
import {
  pendingWithoutAccountCount,
  recordingStateCounts,
  unansweredRecordingIds,
} from '../db/repos/end-states.repo';
import { strandedAnalyses } from '../db/repos/polls.repo';
import { retryRecordings, safeToRetry } from '../db/repos/retry.repo';
import {
  insistOnDuplicate,
  resolveUncertain as resolveUncertainRow,
  uncertainIdsOfBatch,
  uncertainUploadRows,
} from '../db/repos/uploads.repo';
import type { Engine } from './engine.service';
import type { ServiceContext } from './service-context';
import { refusalForRole } from './team-rights';

export interface RecordingsService {
  recordingPage(q: RecordingQuery): Promise<{ rows: RecordingView[]; total: number }>;
  recordingRows(ids: readonly number[]): Promise<RecordingView[]>;
  /** Everything known about one recording; null when there is no such recording. */
  recordingFacts(recordingId: number): Promise<RecordingFacts | null>;
  /** Queues rejected uploads and timed-out analyses again (what is safe to retry); every queue looks now. */
  retryRecordings(recordingIds: readonly number[], at: string): ReturnType<typeof retryRecordings>;
  /** What retrying would touch in the study (or one of its batches), without changing anything. */
  safeToRetry(studyId: number, batchId?: number): ReturnType<typeof safeToRetry>;
  /** The study's uploads whose outcome is unknown (only those of one batch, with `batchId`). */
  uncertainUploads(studyId: number, batchId?: number): Promise<UncertainUpload[]>;
  resolveUncertain(
    recordingId: number,
    decision: 'queue_again' | 'cancel' | 'mark_uploaded_elsewhere',
  ): Promise<boolean>;
  insistOnDuplicate(recordingId: number): Promise<boolean>;
  /** Recordings of the study (or one batch) per state: completed, failed, timed_out, unanswered, processing, or their upload state. */
  recordingStates(studyId: number, batchId?: number): Promise<Record<string, number>>;
  /** Recordings waiting for their participant's account: nothing of them was sent. */
  pendingWithoutAccount(studyId: number): Promise<number>;
  /** The study's recordings with an unanswered analysis: what "one more check" may ask again. */
  unansweredRecordings(studyId: number): Promise<number[]>;
  /** Analyses not in an end state that have no next poll: always empty (the end-state invariant). */
  strandedAnalyses(): ReturnType<typeof strandedAnalyses>;
}

export const recordingsService = (ctx: ServiceContext, engine: Engine): RecordingsService => {
  const { store, iso } = ctx;
  const wakeAll = () => engine.service.wake();
  const uncertainOfStudy = async (studyId: number): Promise<UncertainUpload[]> =>
    (await uncertainUploadRows(store, studyId)).map((r) => {
      const e = r.uploadError;
      const d: Exclude<StoredUploadError, ApiError> = e !== null && !('kind' in e) ? e : {};
      return {
        recordingId: r.id,
        path: r.source_path ?? `recording ${r.id}`,
        participantCode: r.code,
        reason: d.reason ?? 'The outcome of this upload is unknown.',
        error: d.error ?? null,
        usageBefore: d.usageBefore ?? null,
        usageAfter: d.usageAfter ?? null,
      };
    });
  return {
    recordingPage: (q) => recordingPage(ctx.store, q),
    recordingRows: (ids) => recordingRows(ctx.store, ids),
    recordingFacts: (recordingId) => recordingFacts(ctx.store, recordingId),
    async retryRecordings(recordingIds, at) {
      const r = await retryRecordings(store, recordingIds, at);
      wakeAll();
      return r;
    },
    safeToRetry: (studyId, batchId) => safeToRetry(store, studyId, batchId),
    recordingStates: (studyId, batchId) => recordingStateCounts(store, studyId, batchId),
    // Which participants have an account is the owner's to know on a team database (access.ts).
    pendingWithoutAccount: async (studyId) =>
      refusalForRole(ctx.member, 'createAccounts') !== null ? 0 : pendingWithoutAccountCount(store, studyId),
    unansweredRecordings: (studyId) => unansweredRecordingIds(store, studyId),
    strandedAnalyses: () => strandedAnalyses(store),
    async uncertainUploads(studyId, batchId) {
      const all = await uncertainOfStudy(studyId);
      if (batchId === undefined) return all;
      const inBatch = new Set(await uncertainIdsOfBatch(store, batchId));
      return all.filter((u) => inBatch.has(u.recordingId));
    },
    async resolveUncertain(recordingId, decision) {
      const at = iso();
      // The decision, its event and the batch's reopening are one act.
      const done = await store.transaction(
        async (tx) => {
          if (!(await resolveUncertainRow(tx, recordingId, decision))) return false;
          await appendEvent(tx, at, 'uncertain_resolved', { recordingId }, { decision });
          await reopenBatchesOf(tx, [recordingId], at);
          return true;
        },
        { repeatable: true },
      );
      wakeAll();
      return done;
    },
    async insistOnDuplicate(recordingId) {
      const changed = await insistOnDuplicate(store, recordingId, iso);
      wakeAll();
      return changed;
    },
  };
};
