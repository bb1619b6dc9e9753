/**
 * A study's design as stored (migration 0110): its period, the time zone its calendar days are counted
 * in, its visit schedule, and the researcher's visit overrides on recordings.
 */
import type { VisitDef } from '../../../shared/visits';
import type { Db } from '../open';
import { stmt } from '../statements';

export interface StoredDesign {
  readonly studyId: number;
  readonly startDate: string | null;
  readonly endDate: string | null;
  readonly timeZone: string;
  readonly visits: readonly VisitDef[];
}

export interface VisitInput {
  readonly name: string;
  readonly targetDay: number;
  readonly windowBefore: number;
  readonly windowAfter: number;
}

interface VisitRow {
  id: number;
  position: number;
  name: string;
  target_day: number;
  window_before: number;
  window_after: number;
}

export const visitsOfStudy = (db: Db, studyId: number): VisitDef[] =>
  (
    stmt(
      db,
      `SELECT id, position, name, target_day, window_before, window_after FROM study_visits WHERE study_id = ? ORDER BY position`,
    ).all(studyId) as VisitRow[]
  ).map((v) => ({
    id: v.id,
    position: v.position,
    name: v.name,
    targetDay: v.target_day,
    windowBefore: v.window_before,
    windowAfter: v.window_after,
  }));

export const designOf = (db: Db, studyId: number): StoredDesign | null => {
  const s = stmt(db, `SELECT start_date, end_date, time_zone FROM studies WHERE id = ?`).get(studyId) as
    { start_date: string | null; end_date: string | null; time_zone: string } | undefined;
  if (!s) return null;
  return {
    studyId,
    startDate: s.start_date,
    endDate: s.end_date,
    timeZone: s.time_zone,
    visits: visitsOfStudy(db, studyId),
  };
};

export const setStudyPeriod = (
  db: Db,
  studyId: number,
  p: { startDate: string | null; endDate: string | null; timeZone: string },
): boolean =>
  stmt(db, `UPDATE studies SET start_date = ?, end_date = ?, time_zone = ? WHERE id = ?`).run(
    p.startDate,
    p.endDate,
    p.timeZone,
    studyId,
  ).changes === 1;

/**
 * Replaces the schedule, in target-day order. A visit keeps its id (and the overrides pointing at it)
 * when its name is kept; a visit left out is deleted with its overrides.
 */
export const replaceSchedule = (db: Db, studyId: number, visits: readonly VisitInput[]): void =>
  db
    .transaction(() => {
      const existing = new Map(visitsOfStudy(db, studyId).map((v) => [v.name, v.id]));
      const sorted = [...visits].sort((a, b) => a.targetDay - b.targetDay);
      const keep = new Set(sorted.map((v) => existing.get(v.name)).filter((id) => id !== undefined));
      for (const [, id] of existing)
        if (!keep.has(id)) stmt(db, `DELETE FROM study_visits WHERE id = ?`).run(id);
      // Positions move out of the way first (UNIQUE (study_id, position)).
      stmt(db, `UPDATE study_visits SET position = position + 1000000 WHERE study_id = ?`).run(studyId);
      sorted.forEach((v, i) => {
        const id = existing.get(v.name);
        if (id !== undefined)
          stmt(
            db,
            `UPDATE study_visits SET position = ?, target_day = ?, window_before = ?, window_after = ? WHERE id = ?`,
          ).run(i + 1, v.targetDay, v.windowBefore, v.windowAfter, id);
        else
          stmt(
            db,
            `INSERT INTO study_visits (study_id, position, name, target_day, window_before, window_after) VALUES (?, ?, ?, ?, ?, ?)`,
          ).run(studyId, i + 1, v.name, v.targetDay, v.windowBefore, v.windowAfter);
      });
    })
    .immediate();

/** The researcher's visit for a recording: a visit id, null for "no visit"; `clear` removes the override. */
export const setVisitOverride = (
  db: Db,
  recordingId: number,
  visitId: number | null | 'clear',
  at: string,
): void => {
  if (visitId === 'clear') stmt(db, `DELETE FROM recording_visits WHERE recording_id = ?`).run(recordingId);
  else
    stmt(
      db,
      `INSERT INTO recording_visits (recording_id, visit_id, set_at) VALUES (?, ?, ?)
       ON CONFLICT (recording_id) DO UPDATE SET visit_id = excluded.visit_id, set_at = excluded.set_at`,
    ).run(recordingId, visitId, at);
};

/** The study a recording belongs to, or null. */
export const studyOfRecording = (db: Db, recordingId: number): number | null =>
  (
    stmt(db, `SELECT study_id FROM recordings WHERE id = ?`).get(recordingId) as
      { study_id: number } | undefined
  )?.study_id ?? null;
