/**
 * A study's local data as the privacy screen counts it, and its deletion: the rows go (participants,
 * recordings, analyses and values follow through the schema's cascades) with zeroed free pages and an
 * emptied write-ahead log, so deleted codes do not linger in the file.
 */
import type { Db } from '../open';
import { stmt } from '../statements';
import { appendAudit, type AuditEntry } from './audit.repo';

/** Upload copies (converted files) recorded for the study's recordings. */
export const uploadPathsOfStudy = (db: Db, studyId: number): string[] =>
  (
    stmt(db, `SELECT upload_path FROM recordings WHERE study_id = ? AND upload_path IS NOT NULL`).all(
      studyId,
    ) as { upload_path: string }[]
  ).map((r) => r.upload_path);

/** Batches of the study sending now, and its uploads whose answer has not come yet. */
export const studyActivity = (
  db: Db,
  studyId: number,
): { runningBatches: number; uploadsInFlight: number } => ({
  runningBatches: (
    stmt(db, `SELECT count(*) AS n FROM batches WHERE study_id = ? AND state = 'running'`).get(studyId) as {
      n: number;
    }
  ).n,
  uploadsInFlight: (
    stmt(db, `SELECT count(*) AS n FROM recordings WHERE study_id = ? AND upload_state = 'uploading'`).get(
      studyId,
    ) as { n: number }
  ).n,
});

const count = (db: Db, sql: string, studyId: number) => (stmt(db, sql).get(studyId) as { n: number }).n;

/** How many participants, recordings and stored measure values the study holds. */
export const studyRowCounts = (
  db: Db,
  studyId: number,
): { participants: number; recordings: number; measureValues: number } => ({
  participants: count(db, `SELECT count(*) AS n FROM participants WHERE study_id = ?`, studyId),
  recordings: count(db, `SELECT count(*) AS n FROM recordings WHERE study_id = ?`, studyId),
  measureValues: count(
    db,
    `SELECT count(*) AS n FROM measure_values v JOIN recordings r ON r.id = v.recording_id WHERE r.study_id = ?`,
    studyId,
  ),
});

/** When the study was last archived, from the audit log. */
export const lastArchivedAt = (db: Db, studyId: number): string | null =>
  (
    stmt(db, `SELECT max(at) AS at FROM audit_log WHERE study_id = ? AND kind = 'study_archived'`).get(
      studyId,
    ) as { at: string | null }
  ).at;

/**
 * Deletes the study's rows and writes the audit entry `audit` makes of the counts, in one transaction,
 * with secure_delete on (then back as it was) and the WAL checkpointed. `scrubbed` is false when another
 * connection kept the write-ahead log from being emptied.
 */
export const deleteStudyRows = (
  db: Db,
  studyId: number,
  audit: (counts: { participants: number; recordings: number }) => AuditEntry,
): { participants: number; recordings: number; scrubbed: boolean } => {
  // secure_delete zeroes the deleted rows' bytes in the file, and the checkpoint then empties the WAL,
  // so the codes do not linger in free pages or old WAL frames after the researcher deleted them.
  const secureBefore = db.pragma('secure_delete', { simple: true }) as number;
  db.pragma('secure_delete = ON');
  const counts = db
    .transaction(() => {
      const participants = count(db, `SELECT count(*) AS n FROM participants WHERE study_id = ?`, studyId);
      const recordings = count(db, `SELECT count(*) AS n FROM recordings WHERE study_id = ?`, studyId);
      stmt(db, `DELETE FROM studies WHERE id = ?`).run(studyId);
      appendAudit(db, audit({ participants, recordings }));
      return { participants, recordings };
    })
    .immediate();
  db.pragma(`secure_delete = ${secureBefore ? 'ON' : 'OFF'}`);
  const checkpoint = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
  return { ...counts, scrubbed: checkpoint[0]?.busy === 0 };
};
