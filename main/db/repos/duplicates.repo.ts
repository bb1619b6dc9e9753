/**
 * Duplicate recordings: the same audio (content SHA-256) for the same participant, and the
 * same audio under another participant or in another study of the workspace. They are flagged at
 * import and not uploaded unless the researcher insists, because each upload costs a credit and the
 * same audio under two people means one of them is misfiled.
 */
import type { Queryable } from '../store/types';

export interface ExistingCopy {
  readonly id: number;
  readonly sourcePath: string;
  readonly uploadState: string;
  /** Its batch, and whether that batch was never started (still open): then it is sent once started. */
  readonly batchId: number | null;
  readonly inUnstartedBatch: boolean;
}

/** Recordings of this participant with the same content, excluding ones cancelled or refused locally. */
export const findSameContent = async (
  q: Queryable,
  participantId: number,
  contentSha256: string,
): Promise<ExistingCopy[]> =>
  (
    await q.all<{
      id: number;
      source_path: string;
      upload_state: string;
      batch_id: number | null;
      batch_state: string | null;
    }>(
      `SELECT r.id, r.source_path, r.upload_state, r.batch_id, b.state AS batch_state FROM recordings r
             LEFT JOIN batches b ON b.id = r.batch_id
             WHERE r.participant_id = ? AND r.content_sha256 = ? AND r.upload_state NOT IN ('cancelled', 'refused_locally')
             ORDER BY r.id`,
      [participantId, contentSha256],
    )
  ).map((r) => ({
    id: r.id,
    sourcePath: r.source_path,
    uploadState: r.upload_state,
    batchId: r.batch_id,
    inUnstartedBatch:
      r.batch_state === 'open' && (r.upload_state === 'queued' || r.upload_state === 'pending'),
  }));

/**
 * The earliest recording of this participant with the same content that was refused locally (never
 * sent): importing the same file again adds no second "refused locally" row.
 */
export const findRefusedCopy = async (
  q: Queryable,
  participantId: number,
  contentSha256: string,
): Promise<{ id: number; batchId: number | null } | null> => {
  const r = await q.get<{ id: number; batch_id: number | null }>(
    `SELECT id, batch_id FROM recordings
     WHERE participant_id = ? AND content_sha256 = ? AND upload_state = 'refused_locally' ORDER BY id LIMIT 1`,
    [participantId, contentSha256],
  );
  return r ? { id: r.id, batchId: r.batch_id } : null;
};

/** The same audio stored under another participant of the study, or in another study of the workspace. */
export interface SeenElsewhereRow {
  readonly recordingId: number;
  readonly studyId: number;
  readonly study: string;
  readonly participantCode: string;
  readonly session: string | null;
  readonly uploadState: string;
  readonly sourcePath: string;
}

/**
 * Recordings with this content anywhere in the workspace except under `participantId` (null: a new
 * participant, so every copy is elsewhere), this study's first, then by recording number; cancelled
 * files and local refusals do not count (as for `findSameContent`). At most `limit`.
 */
export const findSameContentElsewhere = async (
  q: Queryable,
  contentSha256: string,
  studyId: number,
  participantId: number | null,
  limit = 5,
): Promise<SeenElsewhereRow[]> =>
  (
    await q.all<{
      id: number;
      study_id: number;
      name: string;
      code: string;
      session_label: string | null;
      upload_state: string;
      source_path: string;
    }>(
      `SELECT r.id, r.study_id, s.name, p.code, r.session_label, r.upload_state, r.source_path
       FROM recordings r JOIN participants p ON p.id = r.participant_id JOIN studies s ON s.id = r.study_id
       WHERE r.content_sha256 = ? AND ${q.dialect.distinct('r.participant_id', '?')} AND r.upload_state NOT IN ('cancelled', 'refused_locally')
       ORDER BY r.study_id <> ?, r.id LIMIT ?`,
      [contentSha256, participantId, studyId, limit],
    )
  ).map((r) => ({
    recordingId: r.id,
    studyId: r.study_id,
    study: r.name,
    participantCode: r.code,
    session: r.session_label,
    uploadState: r.upload_state,
    sourcePath: r.source_path,
  }));
