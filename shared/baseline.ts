/**
 * A within-person baseline: the mean and standard deviation of a participant's first k sessions of one
 * measure, only once all k are present (with fewer there is "no baseline yet", never a baseline over
 * fewer sessions under the same name). One definition for the timeline chart, the per-participant
 * export summary and the command line, so they never disagree; the change from it is shared/change.ts.
 */
export interface BaselinePoint {
  readonly recordedAt: string;
  readonly value: number;
}

export interface BaselineStats {
  readonly n: number;
  readonly mean: number;
  /** Sample standard deviation (n − 1); null with fewer than two sessions. */
  readonly sd: number | null;
  readonly from: string;
  readonly to: string;
}

export const DEFAULT_BASELINE_SESSIONS = 3;

/**
 * Where a study's k comes from: the researcher set it for the study ('study'); else the visit schedule
 * gives it ('schedule': the visits before the first follow-up, the first visit after day 0, so a schedule
 * of Baseline, Week 1 and Week 2 gives 1); else the default ('default', 3). One k per study: chosen once,
 * it is used for every participant, the exports and the command line.
 */
export const BASELINE_RULE_SOURCES = ['study', 'schedule', 'default'] as const;
export type BaselineRuleSource = (typeof BASELINE_RULE_SOURCES)[number];

export interface BaselineRule {
  readonly sessions: number;
  readonly source: BaselineRuleSource;
  /** The schedule's first follow-up visit (its name): the baseline is the sessions before it. */
  readonly firstFollowUp: string | null;
}

/** The schedule's baseline: the visits before its first follow-up; null when it has no visit at or before day 0, or no follow-up. */
export const scheduledBaseline = (
  visits: readonly { readonly name: string; readonly targetDay: number }[],
): { sessions: number; firstFollowUp: string } | null => {
  const ordered = [...visits].sort((a, b) => a.targetDay - b.targetDay);
  const followUp = ordered.findIndex((v) => v.targetDay > 0);
  if (followUp < 1) return null;
  return { sessions: Math.min(followUp, 20), firstFollowUp: ordered[followUp]!.name };
};

export const baselineRule = (
  studySetting: number | null,
  visits: readonly { readonly name: string; readonly targetDay: number }[],
): BaselineRule => {
  const fromSchedule = scheduledBaseline(visits);
  if (studySetting !== null) return { sessions: studySetting, source: 'study', firstFollowUp: null };
  if (fromSchedule) return { ...fromSchedule, source: 'schedule' };
  return { sessions: DEFAULT_BASELINE_SESSIONS, source: 'default', firstFollowUp: null };
};

/** The rule in a researcher's words, after "Baseline: " ("the session before Week 1 (from the schedule)"). */
export const baselineRuleText = (rule: BaselineRule): string => {
  const k = rule.sessions;
  if (rule.source === 'schedule')
    return `${k === 1 ? 'the session' : `the ${k} sessions`} before ${rule.firstFollowUp} (from the schedule)`;
  const first = k === 1 ? 'the first session' : `the first ${k} sessions`;
  return rule.source === 'study' ? `${first} (set for this study)` : `${first} (the default)`;
};

export const meanSd = (values: readonly number[]): { mean: number; sd: number | null } => {
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return { mean, sd: null };
  const ss = values.reduce((a, v) => a + (v - mean) ** 2, 0);
  return { mean, sd: Math.sqrt(ss / (n - 1)) };
};

/**
 * Baseline over the first `sessions` points in time order (the caller passes one API version's points
 * only); null while fewer than `sessions` points exist: no baseline yet.
 */
export const baselineOf = (
  points: readonly BaselinePoint[],
  sessions = DEFAULT_BASELINE_SESSIONS,
): BaselineStats | null => {
  const k = Math.max(1, sessions);
  if (points.length < k) return null;
  const ordered = [...points].sort((a, b) => a.recordedAt.localeCompare(b.recordedAt));
  const first = ordered.slice(0, k);
  const { mean, sd } = meanSd(first.map((p) => p.value));
  return { n: first.length, mean, sd, from: first[0]!.recordedAt, to: first.at(-1)!.recordedAt };
};

/**
 * The same baseline for a series that arrives one point at a time in time order, as the export reads
 * recordings: only the first `sessions` points are kept (memory does not grow with the series), and
 * `stats()` is `baselineOf` of exactly those points, so the result equals `baselineOf` of the whole
 * series. Feed one API version's points only, oldest first (ties in the order the timeline uses).
 */
export class BaselineWindow {
  private readonly points: BaselinePoint[] = [];
  readonly sessions: number;

  constructor(sessions = DEFAULT_BASELINE_SESSIONS) {
    this.sessions = Math.max(1, sessions);
  }

  /** Offers the next point of the series; true when it is one of the first `sessions` (it is kept), false once the window is full. */
  add(point: BaselinePoint): boolean {
    if (this.points.length >= this.sessions) return false;
    this.points.push(point);
    return true;
  }

  /** Points in the baseline so far: min(sessions, points offered). */
  get size(): number {
    return this.points.length;
  }

  stats(): BaselineStats | null {
    return baselineOf(this.points, this.sessions);
  }
}
