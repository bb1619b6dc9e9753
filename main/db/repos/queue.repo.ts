/**
 * What the engine's queue runner (main/engine/queue-runner.ts) reads and writes beyond the upload
 * protocol itself: where a recording sits, the usage counters around an uncertain upload, and whether a
 * profile still has work in flight.
 */
import type { Usage } from '../../../shared/api/domain';
import { UPLOAD_STATES_IN_FLIGHT } from '../../../shared/states';
import { sqlWords } from '../sql-words';
import type { Queryable } from '../store/types';
import { recordingUploadError } from './recording-columns';

/** The study and batch a recording belongs to, for progress events. */
export const recordingPlace = async (
  q: Queryable,
  recordingId: number,
): Promise<{ studyId: number; batchId: number | null }> => {
  const r = (await q.get<{ study_id: number; batch_id: number | null }>(
    `SELECT study_id, batch_id FROM recordings WHERE id = ?`,
    [recordingId],
  ))!;
  return { studyId: r.study_id, batchId: r.batch_id };
};

/**
 * Adds the usage counters read before and after an uncertain upload to its recorded error, for the
 * researcher's decision. Changes nothing unless the recording is still `upload_uncertain`.
 */
export const annotateUncertainUsage = async (
  q: Queryable,
  recordingId: number,
  usageBefore: Usage | null,
  usageAfter: Usage | null,
): Promise<void> => {
  const row = await q.get<{ upload_error: string | null }>(
    `SELECT upload_error FROM recordings WHERE id = ?`,
    [recordingId],
  );
  const detail = recordingUploadError.decodeOrNull(row?.upload_error ?? null) ?? {};
  await q.run(`UPDATE recordings SET upload_error = ? WHERE id = ? AND upload_state = 'upload_uncertain'`, [
    JSON.stringify({ ...detail, usageBefore, usageAfter }),
    recordingId,
  ]);
};

/**
 * What a profile still has to do: `uploads`, recordings queued or uploading on running batches; `polls`,
 * analyses the service is still processing.
 */
export const pendingWork = async (
  q: Queryable,
  profileId: number,
): Promise<{ uploads: boolean; polls: boolean }> => {
  const r = (await q.get<{ uploads: number; polls: number }>(
    `SELECT ${q.dialect
      .flag(`EXISTS (SELECT 1 FROM recordings r JOIN batches b ON b.id = r.batch_id JOIN studies s ON s.id = r.study_id
                    WHERE s.profile_id = ? AND b.state = 'running' AND r.upload_state IN ${sqlWords(UPLOAD_STATES_IN_FLIGHT)})`)} AS uploads,
            ${q.dialect
              .flag(`EXISTS (SELECT 1 FROM analyses a JOIN recordings r ON r.id = a.recording_id JOIN studies s ON s.id = r.study_id
                    WHERE s.profile_id = ? AND a.state = 'processing')`)} AS polls`,
    [profileId, profileId],
  ))!;
  return { uploads: r.uploads !== 0, polls: r.polls !== 0 };
};
