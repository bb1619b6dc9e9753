/**
 * Data recency, the view study staff check weekly (mindLAMP's "last active" badges, Beiwe's
 * dashboard): how long since a participant's last usable recording (uploaded, with a completed
 * analysis) and, when the study has a visit schedule, which of its visits were missed. A visit is
 * missed only once its window has closed without any recording placed in it, so nothing is missed
 * before a window closes or after the schedule's last visit. Without a schedule nothing is "missed":
 * only the time since the last recording is shown. Only participants the study follows now can be
 * overdue: active ones, while the study's period runs; the others are `not_followed` (enrolled,
 * completed, withdrawn, or before the start or after the end).
 */
import type { ParticipantStatus } from './states';
import { windowOf, type VisitDef } from './visits';

/**
 * never: no usable recording and no visit missed; on_track: no visit of the schedule missed;
 * overdue: one or more visits missed; no_schedule: the study has no visit schedule, so only the time
 * since the last recording is known; not_followed: the participant or the study's period is not active.
 */
export type RecencyStatus = 'never' | 'on_track' | 'overdue' | 'no_schedule' | 'not_followed';

export interface Recency {
  readonly status: RecencyStatus;
  /** Days since the last usable recording; null when there is none. */
  readonly daysSinceLast: number | null;
  /** Visits of the schedule whose window has closed without a recording (0 when not followed or without a schedule). */
  readonly missedVisits: number;
}

/** Whether the study follows the participant now: their status and the study's period (dates, YYYY-MM-DD). */
export interface RecencyScope {
  readonly status: ParticipantStatus;
  readonly startDate: string | null;
  readonly endDate: string | null;
}

/** Where a participant stands in the study's schedule. */
export interface ScheduleProgress {
  readonly visits: readonly VisitDef[];
  /** Day 0 of the participant's schedule (YYYY-MM-DD); null when unknown. */
  readonly baseline: string | null;
  /** Visits with at least one recording placed in them (cancelled ones left out), by visit id. */
  readonly attended: ReadonlySet<number>;
  /** Today in the study's time zone (YYYY-MM-DD). */
  readonly today: string;
}

const DAY_MS = 86_400_000;

/** True while the study's period runs on `today` (YYYY-MM-DD); open ends always hold. */
export const inStudyPeriod = (s: Pick<RecencyScope, 'startDate' | 'endDate'>, today: string): boolean =>
  (s.startDate === null || s.startDate <= today) && (s.endDate === null || today <= s.endDate);

/** Visits whose window closed before today with no recording in them; none without a baseline. */
export const missedVisitsOf = (s: ScheduleProgress): number => {
  const baseline = s.baseline;
  if (baseline === null) return 0;
  return s.visits.filter((v) => windowOf(v, baseline).to < s.today && !s.attended.has(v.id)).length;
};

export const recencyOf = (
  lastUsableAt: string | null,
  nowMs: number,
  scope: RecencyScope,
  schedule: ScheduleProgress | null,
): Recency => {
  const daysSinceLast =
    lastUsableAt === null ? null : Math.floor(Math.max(0, (nowMs - Date.parse(lastUsableAt)) / DAY_MS));
  if (scope.status !== 'active' || !inStudyPeriod(scope, new Date(nowMs).toISOString().slice(0, 10)))
    return { status: 'not_followed', daysSinceLast, missedVisits: 0 };
  const missedVisits = schedule === null ? 0 : missedVisitsOf(schedule);
  if (missedVisits > 0) return { status: 'overdue', daysSinceLast, missedVisits };
  if (daysSinceLast === null) return { status: 'never', daysSinceLast, missedVisits: 0 };
  const scheduled = schedule !== null && schedule.visits.length > 0;
  return { status: scheduled ? 'on_track' : 'no_schedule', daysSinceLast, missedVisits: 0 };
};
