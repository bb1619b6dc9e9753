/**
 * Duplicate recordings: the same audio (content SHA-256) for the same participant, and (issue 15) the
 * same audio under another participant or in another study of the workspace. They are flagged at
 * import and not uploaded unless the researcher insists, because each upload costs a credit and the
 * same audio under two people means one of them is misfiled.
 */
import type { Db } from '../open';
import { stmt } from '../statements';

export interface ExistingCopy {
  readonly id: number;
  readonly sourcePath: string;
  readonly uploadState: string;
}

/** Recordings of this participant with the same content, excluding ones cancelled or refused locally. */
export const findSameContent = (db: Db, participantId: number, contentSha256: string): ExistingCopy[] =>
  (
    stmt(
      db,
      `SELECT id, source_path, upload_state FROM recordings
             WHERE participant_id = ? AND content_sha256 = ? AND upload_state NOT IN ('cancelled', 'refused_locally')
             ORDER BY id`,
    ).all(participantId, contentSha256) as { id: number; source_path: string; upload_state: string }[]
  ).map((r) => ({ id: r.id, sourcePath: r.source_path, uploadState: r.upload_state }));

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
export const findSameContentElsewhere = (
  db: Db,
  contentSha256: string,
  studyId: number,
  participantId: number | null,
  limit = 5,
): SeenElsewhereRow[] =>
  (
    stmt(
      db,
      `SELECT r.id, r.study_id, s.name, p.code, r.session_label, r.upload_state, r.source_path
       FROM recordings r JOIN participants p ON p.id = r.participant_id JOIN studies s ON s.id = r.study_id
       WHERE r.content_sha256 = ? AND r.participant_id IS NOT ? AND r.upload_state NOT IN ('cancelled', 'refused_locally')
       ORDER BY r.study_id <> ?, r.id LIMIT ?`,
    ).all(contentSha256, participantId, studyId, limit) as {
      id: number;
      study_id: number;
      name: string;
      code: string;
      session_label: string | null;
      upload_state: string;
      source_path: string;
    }[]
  ).map((r) => ({
    recordingId: r.id,
    studyId: r.study_id,
    study: r.name,
    participantCode: r.code,
    session: r.session_label,
    uploadState: r.upload_state,
    sourcePath: r.source_path,
  }));
