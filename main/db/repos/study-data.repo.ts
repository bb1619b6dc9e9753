/**
 * A study's local data as the privacy screen counts it, and its deletion: the rows go (participants,
 * recordings, analyses and values follow through the schema's cascades) with zeroed free pages and an
 * emptied write-ahead log, so deleted codes do not linger in the file.
 */
import type { Queryable, Store } from '../store/types';
import { appendAudit, type AuditEntry } from './audit.repo';

/** Upload copies (converted files) recorded for the study's recordings. */
export const uploadPathsOfStudy = async (q: Queryable, studyId: number): Promise<string[]> =>
  (
    await q.all<{ upload_path: string }>(
      `SELECT upload_path FROM recordings WHERE study_id = ? AND upload_path IS NOT NULL`,
      [studyId],
    )
  ).map((r) => r.upload_path);

const count = async (q: Queryable, sql: string, studyId: number) =>
  (await q.get<{ n: number }>(sql, [studyId]))!.n;

/** Batches of the study sending now, and its uploads whose answer has not come yet. */
export const studyActivity = async (
  q: Queryable,
  studyId: number,
): Promise<{ runningBatches: number; uploadsInFlight: number }> => ({
  runningBatches: await count(
    q,
    `SELECT count(*) AS n FROM batches WHERE study_id = ? AND state = 'running'`,
    studyId,
  ),
  uploadsInFlight: await count(
    q,
    `SELECT count(*) AS n FROM recordings WHERE study_id = ? AND upload_state = 'uploading'`,
    studyId,
  ),
});

/** How many participants, recordings and stored measure values the study holds. */
export const studyRowCounts = async (
  q: Queryable,
  studyId: number,
): Promise<{ participants: number; recordings: number; measureValues: number }> => ({
  participants: await count(q, `SELECT count(*) AS n FROM participants WHERE study_id = ?`, studyId),
  recordings: await count(q, `SELECT count(*) AS n FROM recordings WHERE study_id = ?`, studyId),
  measureValues: await count(
    q,
    `SELECT count(*) AS n FROM measure_values v JOIN recordings r ON r.id = v.recording_id WHERE r.study_id = ?`,
    studyId,
  ),
});

/** When the study was last archived, from the audit log. */
export const lastArchivedAt = async (q: Queryable, studyId: number): Promise<string | null> =>
  (
    await q.get<{ at: string | null }>(
      `SELECT max(at) AS at FROM audit_log WHERE study_id = ? AND kind = 'study_archived'`,
      [studyId],
    )
  )?.at ?? null;

/**
 * Deletes the study's rows and writes the audit entry `audit` makes of the counts, in one transaction,
 * with secure_delete on (then back as it was) and the WAL checkpointed. `scrubbed` is false when another
 * connection kept the write-ahead log from being emptied.
 */
export const deleteStudyRows = async (
  store: Store,
  studyId: number,
  audit: (counts: { participants: number; recordings: number }) => AuditEntry,
): Promise<{ participants: number; recordings: number; scrubbed: boolean }> => {
  // secure_delete zeroes the deleted rows' bytes in the file, and the checkpoint then empties the WAL,
  // so the codes do not linger in free pages or old WAL frames after the researcher deleted them. A
  // server keeps them until its own VACUUM: not scrubbed.
  const secure = store.dialect.secureDelete;
  const secureBefore = secure && (await store.get<{ secure_delete: number }>(secure.read))!.secure_delete;
  if (secure) await store.run(secure.set(true));
  const counts = await store.transaction(
    async (tx) => {
      const participants = await count(
        tx,
        `SELECT count(*) AS n FROM participants WHERE study_id = ?`,
        studyId,
      );
      const recordings = await count(tx, `SELECT count(*) AS n FROM recordings WHERE study_id = ?`, studyId);
      await tx.run(`DELETE FROM studies WHERE id = ?`, [studyId]);
      await appendAudit(tx, audit({ participants, recordings }));
      return { participants, recordings };
    },
    { repeatable: true },
  );
  if (!secure) return { ...counts, scrubbed: false };
  await store.run(secure.set(Boolean(secureBefore)));
  const checkpoint = await store.get<{ busy: number }>(secure.checkpoint);
  return { ...counts, scrubbed: checkpoint?.busy === 0 };
};
