/**
 * What the change statistics read and the study sets for them: the study's k and per-measure
 * reliabilities (migration 0130), and every participant's first k values of each measure and API
 * version, from which the cohort reference (pooled within-person SD, baseline SD) is computed.
 */
import type { Db } from '../open';
import { stmt } from '../statements';

export interface StudyReliabilityRow {
  readonly measure_key: string;
  readonly r: number;
  readonly note: string;
  readonly set_at: string;
}

/** The study's k; null when the study keeps the default (or there is no such study). */
export const studyBaselineSessions = (db: Db, studyId: number): number | null =>
  (
    stmt(db, `SELECT baseline_sessions FROM studies WHERE id = ?`).get(studyId) as
      { baseline_sessions: number | null } | undefined
  )?.baseline_sessions ?? null;

/** Sets the study's k (null: back to the default); false when there is no such study. */
export const setStudyBaselineSessions = (db: Db, studyId: number, k: number | null): boolean =>
  stmt(db, `UPDATE studies SET baseline_sessions = ? WHERE id = ?`).run(k, studyId).changes === 1;

export const studyReliabilities = (db: Db, studyId: number): StudyReliabilityRow[] =>
  stmt(
    db,
    `SELECT measure_key, r, note, set_at FROM study_reliability WHERE study_id = ? ORDER BY measure_key`,
  ).all(studyId) as StudyReliabilityRow[];

export const setStudyReliability = (
  db: Db,
  studyId: number,
  row: { measureKey: string; r: number; note: string; at: string },
): void => {
  stmt(
    db,
    `INSERT INTO study_reliability (study_id, measure_key, r, note, set_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (study_id, measure_key) DO UPDATE SET r = excluded.r, note = excluded.note, set_at = excluded.set_at`,
  ).run(studyId, row.measureKey, row.r, row.note, row.at);
};

export const clearStudyReliability = (db: Db, studyId: number, measureKey: string): boolean =>
  stmt(db, `DELETE FROM study_reliability WHERE study_id = ? AND measure_key = ?`).run(studyId, measureKey)
    .changes === 1;

export const studyOfParticipant = (db: Db, participantId: number): number | null =>
  (
    stmt(db, `SELECT study_id FROM participants WHERE id = ?`).get(participantId) as
      { study_id: number } | undefined
  )?.study_id ?? null;

/** [participant_id, measure_key, api_version, value_num] */
export type StudyValueRow = [number, string, string, number];

/**
 * Every numeric value of uploaded recordings of the study, in recording time order (ties by recording
 * number): one pass along the index recordings_by_study_time, each recording's values by its primary
 * key, with no sort. The caller keeps what it needs (each series' first k values) as they pass.
 */
export const studyValuesInTimeOrder = (db: Db, studyId: number): IterableIterator<StudyValueRow> =>
  stmt(
    db,
    `SELECT r.participant_id, mv.measure_key, r.api_version, mv.value_num
     FROM recordings r JOIN measure_values mv ON mv.recording_id = r.id
     WHERE r.study_id = ? AND r.upload_state = 'uploaded' AND r.excluded_at IS NULL AND r.api_version IS NOT NULL AND mv.value_num IS NOT NULL
     ORDER BY r.recorded_at, r.id`,
  )
    .raw(true)
    .iterate(studyId) as IterableIterator<StudyValueRow>;

/** Changes whenever this connection or another one has written to the database (a cache key). */
export const databaseVersion = (db: Db): string =>
  `${String(db.pragma('data_version', { simple: true }))}:${String(
    (stmt(db, `SELECT total_changes() AS n`).get() as { n: number }).n,
  )}`;

export const participantIdByCode = (db: Db, studyId: number, code: string): number | null =>
  (
    stmt(db, `SELECT id FROM participants WHERE study_id = ? AND code = ?`).get(studyId, code) as
      { id: number } | undefined
  )?.id ?? null;
