/**
 * Data recency, the view study staff check weekly (mindLAMP's "last active" badges, Beiwe's
 * dashboard): how long since a participant's last usable recording (uploaded, with a completed
 * analysis), measured against the study's expected interval between sessions. Only participants the
 * study follows now can be overdue: active ones, while the study's period runs (issue 15); the others
 * are `not_followed` (enrolled, completed, withdrawn, or before the start or after the end).
 */
import type { ParticipantStatus } from './states';

export type RecencyStatus = 'never' | 'on_track' | 'overdue' | 'not_followed';

export interface Recency {
  readonly status: RecencyStatus;
  /** Days since the last usable recording; null when there is none. */
  readonly daysSinceLast: number | null;
  /** Whole sessions missed since the last one (0 while the next is not yet due, and when not followed). */
  readonly missedSessions: number;
}

/** Whether the study follows the participant now: their status and the study's period (dates, YYYY-MM-DD). */
export interface RecencyScope {
  readonly status: ParticipantStatus;
  readonly startDate: string | null;
  readonly endDate: string | null;
}

const DAY_MS = 86_400_000;

/** True while the study's period runs on `today` (YYYY-MM-DD); open ends always hold. */
export const inStudyPeriod = (s: Pick<RecencyScope, 'startDate' | 'endDate'>, today: string): boolean =>
  (s.startDate === null || s.startDate <= today) && (s.endDate === null || today <= s.endDate);

export const recencyOf = (
  lastUsableAt: string | null,
  intervalDays: number,
  nowMs: number,
  scope?: RecencyScope,
): Recency => {
  const days = lastUsableAt === null ? null : Math.max(0, (nowMs - Date.parse(lastUsableAt)) / DAY_MS);
  const daysSinceLast = days === null ? null : Math.floor(days);
  if (
    scope &&
    (scope.status !== 'active' || !inStudyPeriod(scope, new Date(nowMs).toISOString().slice(0, 10)))
  )
    return { status: 'not_followed', daysSinceLast, missedSessions: 0 };
  if (days === null) return { status: 'never', daysSinceLast: null, missedSessions: 0 };
  const missed = Math.floor(days / intervalDays);
  return { status: missed > 0 ? 'overdue' : 'on_track', daysSinceLast, missedSessions: missed };
};

/** The latest recording time that still counts as on track (ISO), for SQL filters. */
export const overdueBefore = (intervalDays: number, nowMs: number): string =>
  new Date(nowMs - intervalDays * DAY_MS).toISOString();
