/**
 * "Retry" as the researcher may ask for it: only what is safe. A rejected upload was certainly not
 * charged, so it is queued again (unless the refusal is permanent: too large, malformed, too little
 * speech for isolation); timed-out and unanswered analyses are asked for again now (an unanswered one
 * gets one more check, then is unanswered again if the service still says nothing). Uncertain uploads are never
 * touched here: they need the researcher's explicit decision (uploads.repo.ts resolveUncertain).
 */
import { retryable } from '../../../shared/recording-problems';
import type { AnalysisType } from '../../../shared/api/vocabulary';
import type { AnalysisState } from '../../../shared/study';
import { ANALYSIS_STATES_DONE } from '../../../shared/states';
import { sqlWords } from '../sql-words';
import type { Queryable, Store } from '../store/types';
import { reopenBatchesOf } from './batches.repo';
import { appendEvent } from './event-log.repo';
import { recordingAnalysisStates, recordingUploadError } from './recording-columns';

export const retryRecordings = (
  store: Store,
  recordingIds: readonly number[],
  at: string,
): Promise<{ retried: number; skipped: number }> =>
  store.transaction(
    async (tx) => {
      let retried = 0;
      const requeued: number[] = [];
      for (const id of recordingIds) {
        const r = await tx.get<{ study_id: number; upload_state: string; upload_error: string | null }>(
          `SELECT study_id, upload_state, upload_error FROM recordings WHERE id = ?`,
          [id],
        );
        if (!r) continue;
        const analyses = await tx.all<{ type: AnalysisType; state: AnalysisState }>(
          `SELECT type, state FROM analyses WHERE recording_id = ?`,
          [id],
        );
        const facts = {
          uploadState: r.upload_state as 'rejected',
          analyses,
          verdict: null,
          uploadError: recordingUploadError.decodeOrNull(r.upload_error),
        };
        if (!retryable(facts)) continue;
        if (r.upload_state === 'rejected') {
          await tx.run(
            `UPDATE recordings SET upload_state = 'queued', upload_error = NULL WHERE id = ? AND upload_state = 'rejected'`,
            [id],
          );
          await appendEvent(tx, at, 'upload_requeued', { studyId: r.study_id, recordingId: id }, {});
          requeued.push(id);
        } else {
          // One more check: unanswered analyses are re-checked once (the schedule then ends them again).
          await tx.run(
            `UPDATE analyses SET state = 'timed_out', next_poll_at = ? WHERE recording_id = ? AND state IN ('timed_out', 'unanswered')`,
            [at, id],
          );
          await appendEvent(tx, at, 'results_recheck', { studyId: r.study_id, recordingId: id }, {});
        }
        retried++;
      }
      await reopenBatchesOf(tx, requeued, at);
      return { retried, skipped: recordingIds.length - retried };
    },
    { repeatable: true },
  );

/**
 * What retrying would touch in a study (or one of its batches): the same rule as retryRecordings, read
 * without changing anything, so the screen can say what "retry what is safe" will do before it is asked.
 */
export const safeToRetry = async (
  q: Queryable,
  studyId: number,
  batchId?: number,
  max = 10_000,
): Promise<{ recordingIds: number[]; rejected: number; lateAnalyses: number }> => {
  const rows = await q.all<{
    id: number;
    upload_state: 'rejected' | 'uploaded';
    upload_error: string | null;
    analyses: string;
  }>(
    `SELECT r.id, r.upload_state, r.upload_error,
            (SELECT ${q.dialect.jsonGroupArrayOfPairs('a.type', 'a.state')} FROM analyses a WHERE a.recording_id = r.id) AS analyses
     FROM recordings r
     WHERE r.study_id = ? AND (${q.dialect.param('integer')} IS NULL OR r.batch_id = ?)
       AND (r.upload_state = 'rejected'
            OR (r.upload_state = 'uploaded' AND r.id IN (SELECT recording_id FROM analyses WHERE state NOT IN ${sqlWords(ANALYSIS_STATES_DONE)} AND state IN ('timed_out', 'unanswered'))))
     ORDER BY r.id`,
    [studyId, batchId ?? null, batchId ?? null],
  );
  const recordingIds: number[] = [];
  let rejected = 0;
  let lateAnalyses = 0;
  for (const r of rows) {
    const facts = {
      uploadState: r.upload_state,
      verdict: null,
      analyses: recordingAnalysisStates.decode(r.analyses).map(([type, state]) => ({ type, state })),
      uploadError: recordingUploadError.decodeOrNull(r.upload_error),
    };
    if (!retryable(facts) || recordingIds.length >= max) continue;
    recordingIds.push(r.id);
    if (r.upload_state === 'rejected') rejected++;
    else lateAnalyses++;
  }
  return { recordingIds, rejected, lateAnalyses };
};
