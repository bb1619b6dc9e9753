/**
 * What the change statistics read and the study sets for them: the study's k and per-measure
 * reliabilities (migration 0130), and every participant's first k values of each measure and API
 * version, from which the cohort reference (pooled within-person SD, baseline SD) is computed.
 */
import type { Queryable } from '../store/types';
import { setImmediate as nextTurn } from 'node:timers/promises';

export interface StudyReliabilityRow {
  readonly measure_key: string;
  readonly r: number;
  readonly note: string;
  readonly set_at: string;
}

/** The study's k; null when the study keeps the default (or there is no such study). */
export const studyBaselineSessions = async (q: Queryable, studyId: number): Promise<number | null> =>
  (
    await q.get<{ baseline_sessions: number | null }>(`SELECT baseline_sessions FROM studies WHERE id = ?`, [
      studyId,
    ])
  )?.baseline_sessions ?? null;

/** Sets the study's k (null: back to the default); false when there is no such study. */
export const setStudyBaselineSessions = async (
  q: Queryable,
  studyId: number,
  k: number | null,
): Promise<boolean> =>
  (await q.run(`UPDATE studies SET baseline_sessions = ? WHERE id = ?`, [k, studyId])).changes === 1;

export const studyReliabilities = (q: Queryable, studyId: number): Promise<StudyReliabilityRow[]> =>
  q.all<StudyReliabilityRow>(
    `SELECT measure_key, r, note, set_at FROM study_reliability WHERE study_id = ? ORDER BY ${q.dialect.binary('measure_key')}`,
    [studyId],
  );

export const setStudyReliability = async (
  q: Queryable,
  studyId: number,
  row: { measureKey: string; r: number; note: string; at: string },
): Promise<void> => {
  await q.run(
    `INSERT INTO study_reliability (study_id, measure_key, r, note, set_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (study_id, measure_key) DO UPDATE SET r = excluded.r, note = excluded.note, set_at = excluded.set_at`,
    [studyId, row.measureKey, row.r, row.note, row.at],
  );
};

export const clearStudyReliability = async (
  q: Queryable,
  studyId: number,
  measureKey: string,
): Promise<boolean> =>
  (await q.run(`DELETE FROM study_reliability WHERE study_id = ? AND measure_key = ?`, [studyId, measureKey]))
    .changes === 1;

export const studyOfParticipant = async (q: Queryable, participantId: number): Promise<number | null> =>
  (await q.get<{ study_id: number }>(`SELECT study_id FROM participants WHERE id = ?`, [participantId]))
    ?.study_id ?? null;

export interface StudyValueRow {
  readonly participant_id: number;
  readonly measure_key: string;
  readonly api_version: string;
  readonly value_num: number;
}

/** Rows a page of `studyValuesInTimeOrder` reads at most (a recording's values are never split between pages). */
export const VALUES_PAGE_ROWS = 10_000;

interface PagedValueRow extends StudyValueRow {
  readonly recording_id: number;
  readonly recorded_at: string;
}

/**
 * Every numeric value of uploaded recordings of the study, in recording time order (ties by recording
 * number), a page at a time: each page one pass along the index recordings_by_study_time from where the
 * last one ended, each recording's values by its primary key, with no sort. The caller keeps what it
 * needs (each series' first k values) as they pass; no more than a page is held at once. The event loop
 * gets a turn after each page.
 */
export async function* studyValuesInTimeOrder(
  q: Queryable,
  studyId: number,
  pageRows = VALUES_PAGE_ROWS,
): AsyncIterable<readonly StudyValueRow[]> {
  let after: { at: string; id: number } = { at: '', id: 0 };
  for (;;) {
    const rows = await q.all<PagedValueRow>(
      `SELECT r.id AS recording_id, r.recorded_at, r.participant_id, mv.measure_key, r.api_version, mv.value_num
     FROM recordings r JOIN measure_values mv ON mv.recording_id = r.id
     WHERE r.study_id = ? AND r.upload_state = 'uploaded' AND r.excluded_at IS NULL AND r.api_version IS NOT NULL AND mv.value_num IS NOT NULL
       AND (r.recorded_at, r.id) > (?, ?)
     ORDER BY r.recorded_at, r.id
     LIMIT ?`,
      [studyId, after.at, after.id, pageRows],
    );
    if (rows.length < pageRows) {
      if (rows.length) yield rows;
      return;
    }
    // A full page may end inside a recording's values: that recording starts the next page.
    const last = rows[rows.length - 1]!.recording_id;
    let end = rows.length;
    while (end > 0 && rows[end - 1]!.recording_id === last) end--;
    if (end === 0) throw new Error(`recording ${last} has a page of values or more (${pageRows})`);
    const kept = rows.slice(0, end);
    const tail = kept[kept.length - 1]!;
    after = { at: tail.recorded_at, id: tail.recording_id };
    yield kept;
    // A study file's pages are read synchronously: without a turn of the event loop between them the
    // pass held the main process for its whole length (about 11 s at 100,000 recordings, an export's start).
    await nextTurn();
  }
}

/** Changes whenever this connection or another one has written to the database (a cache key). */
export const databaseVersion = async (q: Queryable): Promise<string> => {
  return (await q.get<{ v: string }>(`SELECT ${q.dialect.writeStamp} AS v`))!.v;
};
