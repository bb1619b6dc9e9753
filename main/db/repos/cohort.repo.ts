/**
 * The cohort view's reads and the participant attributes (migration 0140): researcher-defined key/value
 * attributes per participant, one measure's values across a study's participants, and the researcher's
 * chart choices per study.
 */
import type { SeriesSource } from '../../../shared/contract/timeline.contract';
import type { Db } from '../open';
import { stmt } from '../statements';

export interface AttributeRow {
  readonly participant_id: number;
  readonly key: string;
  readonly value: string;
}

/** Every attribute of the study's participants. */
export const attributesOfStudy = (db: Db, studyId: number): AttributeRow[] =>
  stmt(
    db,
    `SELECT a.participant_id, a.key, a.value FROM participant_attributes a
     JOIN participants p ON p.id = a.participant_id
     WHERE p.study_id = ? ORDER BY a.key, p.code`,
  ).all(studyId) as AttributeRow[];

/** The study a participant belongs to, or undefined. */
export const studyOfParticipant = (db: Db, participantId: number): number | undefined =>
  (
    stmt(db, `SELECT study_id FROM participants WHERE id = ?`).get(participantId) as
      { study_id: number } | undefined
  )?.study_id;

/** The study's participants by code. */
export const participantIdsByCode = (db: Db, studyId: number): Map<string, number> =>
  new Map(
    (
      stmt(db, `SELECT id, code FROM participants WHERE study_id = ?`).all(studyId) as {
        id: number;
        code: string;
      }[]
    ).map((r) => [r.code, r.id]),
  );

/**
 * Sets attributes of participants in one transaction: a value sets the key, null removes it. Keys not
 * named are left as they are.
 */
export const writeAttributes = (
  db: Db,
  changes: readonly { participantId: number; key: string; value: string | null }[],
  at: string,
): void => {
  const set = stmt(
    db,
    `INSERT INTO participant_attributes (participant_id, key, value, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (participant_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  );
  const remove = stmt(db, `DELETE FROM participant_attributes WHERE participant_id = ? AND key = ?`);
  db.transaction(() => {
    for (const c of changes)
      if (c.value === null) remove.run(c.participantId, c.key);
      else set.run(c.participantId, c.key, c.value, at);
  })();
};

export interface CohortValueRow {
  readonly participant_id: number;
  readonly code: string;
  readonly recording_id: number;
  readonly recorded_at: string;
  readonly session_label: string | null;
  /** The API version of a service measure; 'local' for a local acoustic measure. */
  readonly api_version: SeriesSource;
  /** The participant's first analysed session (any measure), the origin of "days since the first session". */
  readonly first_at: string;
  readonly value_num: number | null;
  readonly value_text: string | null;
}

/** One measure's values across the study's participants (uploaded recordings with results), by participant and time. */
export const cohortValues = (db: Db, studyId: number, measureKey: string): CohortValueRow[] =>
  stmt(
    db,
    `WITH firsts AS (
       SELECT r.participant_id, MIN(r.recorded_at) AS first_at FROM recordings r
       JOIN participants p ON p.id = r.participant_id
       WHERE p.study_id = ? AND r.upload_state = 'uploaded' AND r.api_version IS NOT NULL AND r.excluded_at IS NULL
       GROUP BY r.participant_id
     )
     SELECT mv.participant_id, p.code, r.id AS recording_id, r.recorded_at, r.session_label, r.api_version,
            f.first_at, mv.value_num, mv.value_text
     FROM firsts f
     JOIN participants p ON p.id = f.participant_id
     JOIN measure_values mv ON mv.participant_id = f.participant_id AND mv.measure_key = ?
     JOIN recordings r ON r.id = mv.recording_id
     WHERE r.upload_state = 'uploaded' AND r.api_version IS NOT NULL AND r.excluded_at IS NULL
     ORDER BY p.code, r.recorded_at, r.id`,
  ).all(studyId, measureKey) as CohortValueRow[];

/**
 * One local acoustic measure's values across the study's participants (recordings not excluded or
 * cancelled, sent or not: the measure is computed here from the audio), by participant and time.
 */
export const cohortLocalValues = (db: Db, studyId: number, measure: string): CohortValueRow[] =>
  stmt(
    db,
    `WITH firsts AS (
       SELECT r.participant_id, MIN(r.recorded_at) AS first_at FROM recordings r
       JOIN participants p ON p.id = r.participant_id
       WHERE p.study_id = ? AND r.upload_state <> 'cancelled' AND r.excluded_at IS NULL
       GROUP BY r.participant_id
     )
     SELECT r.participant_id, p.code, r.id AS recording_id, r.recorded_at, r.session_label,
            'local' AS api_version, f.first_at, lm.value AS value_num, NULL AS value_text
     FROM firsts f
     JOIN participants p ON p.id = f.participant_id
     JOIN recordings r ON r.participant_id = f.participant_id
     JOIN local_measures lm ON lm.recording_id = r.id AND lm.measure = ?
     WHERE lm.value IS NOT NULL AND r.upload_state <> 'cancelled' AND r.excluded_at IS NULL
     ORDER BY p.code, r.recorded_at, r.id`,
  ).all(studyId, measure) as CohortValueRow[];

/** The researcher's stored choice for a study's view (JSON), or undefined. */
export const chartChoice = (db: Db, studyId: number, view: string): string | undefined =>
  (
    stmt(db, `SELECT choice FROM study_chart_choices WHERE study_id = ? AND view = ?`).get(studyId, view) as
      { choice: string } | undefined
  )?.choice;

export const saveChartChoice = (db: Db, studyId: number, view: string, choice: string, at: string): void => {
  stmt(
    db,
    `INSERT INTO study_chart_choices (study_id, view, choice, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (study_id, view) DO UPDATE SET choice = excluded.choice, updated_at = excluded.updated_at`,
  ).run(studyId, view, choice, at);
};

export const studyExists = (db: Db, studyId: number): boolean =>
  stmt(db, `SELECT 1 FROM studies WHERE id = ?`).get(studyId) !== undefined;
