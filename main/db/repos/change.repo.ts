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

export interface BaselineValueRow {
  readonly participant_id: number;
  readonly measure_key: string;
  readonly api_version: string;
  readonly value_num: number;
}

/**
 * The first k numeric values of every participant of the study, per measure and API version, of
 * uploaded recordings, in the timeline's order (recording time, then recording number), only for the
 * series that have all k (complete baselines). Ordered by measure, version, participant, time.
 */
export const completeBaselineValues = (db: Db, studyId: number, k: number): BaselineValueRow[] =>
  stmt(
    db,
    `WITH ranked AS (
       SELECT mv.participant_id, mv.measure_key, r.api_version, mv.value_num, r.recorded_at, r.id,
              ROW_NUMBER() OVER (PARTITION BY mv.participant_id, mv.measure_key, r.api_version ORDER BY r.recorded_at, r.id) AS rn,
              COUNT(*) OVER (PARTITION BY mv.participant_id, mv.measure_key, r.api_version) AS n
       FROM recordings r JOIN measure_values mv ON mv.recording_id = r.id
       WHERE r.study_id = ? AND r.upload_state = 'uploaded' AND r.api_version IS NOT NULL AND mv.value_num IS NOT NULL
     )
     SELECT participant_id, measure_key, api_version, value_num FROM ranked
     WHERE rn <= ? AND n >= ?
     ORDER BY measure_key, api_version, participant_id, recorded_at, id`,
  ).all(studyId, k, k) as BaselineValueRow[];

export const participantIdByCode = (db: Db, studyId: number, code: string): number | null =>
  (
    stmt(db, `SELECT id FROM participants WHERE study_id = ? AND code = ?`).get(studyId, code) as
      { id: number } | undefined
  )?.id ?? null;
