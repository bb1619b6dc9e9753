/**
 * Duplicate recordings: the same audio (content SHA-256) for the same participant. They are flagged at
 * import and not uploaded unless the researcher insists, because each upload costs a credit.
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
