/**
 * What the engine's queue runner (main/engine/queue-runner.ts) reads and writes beyond the upload
 * protocol itself: where a recording sits, the usage counters around an uncertain upload, and whether a
 * profile still has work in flight.
 */
import type { Usage } from '../../../shared/api/domain';
import { UPLOAD_STATES_IN_FLIGHT } from '../../../shared/states';
import type { Db } from '../open';
import { sqlWords } from '../sql-words';
import { stmt } from '../statements';
import { recordingUploadError } from './recording-columns';

/** The study and batch a recording belongs to, for progress events. */
export const recordingPlace = (db: Db, recordingId: number): { studyId: number; batchId: number | null } => {
  const r = stmt(db, `SELECT study_id, batch_id FROM recordings WHERE id = ?`).get(recordingId) as {
    study_id: number;
    batch_id: number | null;
  };
  return { studyId: r.study_id, batchId: r.batch_id };
};

/**
 * Adds the usage counters read before and after an uncertain upload to its recorded error, for the
 * researcher's decision. Changes nothing unless the recording is still `upload_uncertain`.
 */
export const annotateUncertainUsage = (
  db: Db,
  recordingId: number,
  usageBefore: Usage | null,
  usageAfter: Usage | null,
): void => {
  const row = stmt(db, `SELECT upload_error FROM recordings WHERE id = ?`).get(recordingId) as
    { upload_error: string | null } | undefined;
  const detail = recordingUploadError.decodeOrNull(row?.upload_error ?? null) ?? {};
  stmt(db, `UPDATE recordings SET upload_error = ? WHERE id = ? AND upload_state = 'upload_uncertain'`).run(
    JSON.stringify({ ...detail, usageBefore, usageAfter }),
    recordingId,
  );
};

/**
 * What a profile still has to do: `uploads`, recordings queued or uploading on running batches; `polls`,
 * analyses the service is still processing.
 */
export const pendingWork = (db: Db, profileId: number): { uploads: boolean; polls: boolean } => {
  const r = stmt(
    db,
    `SELECT EXISTS (SELECT 1 FROM recordings r JOIN batches b ON b.id = r.batch_id JOIN studies s ON s.id = r.study_id
                    WHERE s.profile_id = ? AND b.state = 'running' AND r.upload_state IN ${sqlWords(UPLOAD_STATES_IN_FLIGHT)}) AS uploads,
            EXISTS (SELECT 1 FROM analyses a JOIN recordings r ON r.id = a.recording_id JOIN studies s ON s.id = r.study_id
                    WHERE s.profile_id = ? AND a.state = 'processing') AS polls`,
  ).get(profileId, profileId) as { uploads: number; polls: number };
  return { uploads: r.uploads !== 0, polls: r.polls !== 0 };
};
