/**
 * A study's design as stored (migration 0110): its period, the time zone its calendar days are counted
 * in, its visit schedule, and the researcher's visit overrides on recordings.
 */
import type { VisitDef } from '../../../shared/visits';
import type { Queryable } from '../store/types';

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

const toVisit = (v: VisitRow): VisitDef => ({
  id: v.id,
  position: v.position,
  name: v.name,
  targetDay: v.target_day,
  windowBefore: v.window_before,
  windowAfter: v.window_after,
});

export const visitsOfStudy = async (q: Queryable, studyId: number): Promise<VisitDef[]> =>
  (
    await q.all<VisitRow>(
      `SELECT id, position, name, target_day, window_before, window_after FROM study_visits WHERE study_id = ? ORDER BY position`,
      [studyId],
    )
  ).map(toVisit);

export const designOf = async (q: Queryable, studyId: number): Promise<StoredDesign | null> => {
  const s = await q.get<{ start_date: string | null; end_date: string | null; time_zone: string }>(
    `SELECT start_date, end_date, time_zone FROM studies WHERE id = ?`,
    [studyId],
  );
  if (!s) return null;
  return {
    studyId,
    startDate: s.start_date,
    endDate: s.end_date,
    timeZone: s.time_zone,
    visits: await visitsOfStudy(q, studyId),
  };
};

export const setStudyPeriod = async (
  q: Queryable,
  studyId: number,
  p: { startDate: string | null; endDate: string | null; timeZone: string },
): Promise<boolean> =>
  (
    await q.run(`UPDATE studies SET start_date = ?, end_date = ?, time_zone = ? WHERE id = ?`, [
      p.startDate,
      p.endDate,
      p.timeZone,
      studyId,
    ])
  ).changes === 1;

/**
 * Replaces the schedule, in target-day order. A visit keeps its id (and the overrides pointing at it)
 * when its name is kept; a visit left out is deleted with its overrides. Several writes: the caller
 * runs it inside its transaction (`tx`).
 */
export const replaceSchedule = async (
  tx: Queryable,
  studyId: number,
  visits: readonly VisitInput[],
): Promise<void> => {
  const existing = new Map((await visitsOfStudy(tx, studyId)).map((v) => [v.name, v.id]));
  const sorted = [...visits].sort((a, b) => a.targetDay - b.targetDay);
  const keep = new Set(sorted.map((v) => existing.get(v.name)).filter((id) => id !== undefined));
  for (const [, id] of existing)
    if (!keep.has(id)) await tx.run(`DELETE FROM study_visits WHERE id = ?`, [id]);
  // Positions move out of the way first (UNIQUE (study_id, position)).
  await tx.run(`UPDATE study_visits SET position = position + 1000000 WHERE study_id = ?`, [studyId]);
  for (const [i, v] of sorted.entries()) {
    const id = existing.get(v.name);
    if (id !== undefined)
      await tx.run(
        `UPDATE study_visits SET position = ?, target_day = ?, window_before = ?, window_after = ? WHERE id = ?`,
        [i + 1, v.targetDay, v.windowBefore, v.windowAfter, id],
      );
    else
      await tx.run(
        `INSERT INTO study_visits (study_id, position, name, target_day, window_before, window_after) VALUES (?, ?, ?, ?, ?, ?)`,
        [studyId, i + 1, v.name, v.targetDay, v.windowBefore, v.windowAfter],
      );
  }
};

/** The researcher's visit for a recording: a visit id, null for "no visit"; `clear` removes the override. */
export const setVisitOverride = async (
  q: Queryable,
  recordingId: number,
  visitId: number | null | 'clear',
  at: string,
): Promise<void> => {
  if (visitId === 'clear') await q.run(`DELETE FROM recording_visits WHERE recording_id = ?`, [recordingId]);
  else
    await q.run(
      `INSERT INTO recording_visits (recording_id, visit_id, set_at) VALUES (?, ?, ?)
       ON CONFLICT (recording_id) DO UPDATE SET visit_id = excluded.visit_id, set_at = excluded.set_at`,
      [recordingId, visitId, at],
    );
};

/** The study a recording belongs to, or null. */
export const studyOfRecording = async (q: Queryable, recordingId: number): Promise<number | null> =>
  (await q.get<{ study_id: number }>(`SELECT study_id FROM recordings WHERE id = ?`, [recordingId]))
    ?.study_id ?? null;
