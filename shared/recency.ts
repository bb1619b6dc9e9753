/**
 * Data recency, the view study staff check weekly (mindLAMP's "last active" badges, Beiwe's
 * dashboard): how long since a participant's last recording, measured against the study's expected
 * interval between sessions.
 */
export type RecencyStatus = 'never' | 'on_track' | 'overdue';

export interface Recency {
  readonly status: RecencyStatus;
  readonly daysSinceLast: number | null;
  /** Whole sessions missed since the last one (0 while the next is not yet due). */
  readonly missedSessions: number;
}

const DAY_MS = 86_400_000;

export const recencyOf = (lastRecordedAt: string | null, intervalDays: number, nowMs: number): Recency => {
  if (lastRecordedAt === null) return { status: 'never', daysSinceLast: null, missedSessions: 0 };
  const days = Math.max(0, (nowMs - Date.parse(lastRecordedAt)) / DAY_MS);
  const missed = Math.floor(days / intervalDays);
  return {
    status: missed > 0 ? 'overdue' : 'on_track',
    daysSinceLast: Math.floor(days),
    missedSessions: missed,
  };
};

/** The latest recording time that still counts as on track (ISO), for SQL filters. */
export const overdueBefore = (intervalDays: number, nowMs: number): string =>
  new Date(nowMs - intervalDays * DAY_MS).toISOString();
