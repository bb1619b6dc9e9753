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
