/**
 * The cohort view's reads and the participant attributes (migration 0140): researcher-defined key/value
 * attributes per participant, one measure's values across a study's participants, and the researcher's
 * chart choices per study.
 */
import type { SeriesSource } from '../../../shared/contract/timeline.contract';
import type { Queryable } from '../store/types';

export interface AttributeRow {
  readonly participant_id: number;
  readonly key: string;
  readonly value: string;
}

/** Every attribute of the study's participants. */
export const attributesOfStudy = (q: Queryable, studyId: number): Promise<AttributeRow[]> =>
  q.all<AttributeRow>(
    `SELECT a.participant_id, a.key, a.value FROM participant_attributes a
     JOIN participants p ON p.id = a.participant_id
     WHERE p.study_id = ? ORDER BY ${q.dialect.binary('a.key')}, ${q.dialect.binary('p.code')}`,
    [studyId],
  );

/** The study a participant belongs to, or undefined. */
export const studyOfParticipant = async (q: Queryable, participantId: number): Promise<number | undefined> =>
  (await q.get<{ study_id: number }>(`SELECT study_id FROM participants WHERE id = ?`, [participantId]))
    ?.study_id;

/** The study's participants by code. */
export const participantIdsByCode = async (q: Queryable, studyId: number): Promise<Map<string, number>> =>
  new Map(
    (
      await q.all<{ id: number; code: string }>(`SELECT id, code FROM participants WHERE study_id = ?`, [
        studyId,
      ])
    ).map((r) => [r.code, r.id]),
  );

/**
 * Sets attributes of participants: a value sets the key, null removes it. Keys not named are left as
 * they are. Run it in a transaction (`tx`) for the changes to land together.
 */
export const writeAttributes = async (
  tx: Queryable,
  changes: readonly { participantId: number; key: string; value: string | null }[],
  at: string,
): Promise<void> => {
  for (const c of changes)
    if (c.value === null)
      await tx.run(`DELETE FROM participant_attributes WHERE participant_id = ? AND key = ?`, [
        c.participantId,
        c.key,
      ]);
    else
      await tx.run(
        `INSERT INTO participant_attributes (participant_id, key, value, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (participant_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
        [c.participantId, c.key, c.value, at],
      );
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
export const cohortValues = (q: Queryable, studyId: number, measureKey: string): Promise<CohortValueRow[]> =>
  q.all<CohortValueRow>(
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
    [studyId, measureKey],
  );

/**
 * One local acoustic measure's values across the study's participants (recordings not excluded or
 * cancelled, sent or not: the measure is computed here from the audio), by participant and time.
 */
export const cohortLocalValues = (
  q: Queryable,
  studyId: number,
  measure: string,
): Promise<CohortValueRow[]> =>
  q.all<CohortValueRow>(
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
    [studyId, measure],
  );

/** The researcher's stored choice for a study's view (JSON), or undefined. */
export const chartChoice = async (q: Queryable, studyId: number, view: string): Promise<string | undefined> =>
  (
    await q.get<{ choice: string }>(
      `SELECT choice FROM study_chart_choices WHERE study_id = ? AND view = ?`,
      [studyId, view],
    )
  )?.choice;

export const saveChartChoice = async (
  q: Queryable,
  studyId: number,
  view: string,
  choice: string,
  at: string,
): Promise<void> => {
  await q.run(
    `INSERT INTO study_chart_choices (study_id, view, choice, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (study_id, view) DO UPDATE SET choice = excluded.choice, updated_at = excluded.updated_at`,
    [studyId, view, choice, at],
  );
};

export const studyExists = async (q: Queryable, studyId: number): Promise<boolean> =>
  (await q.get(`SELECT 1 FROM studies WHERE id = ?`, [studyId])) !== undefined;
