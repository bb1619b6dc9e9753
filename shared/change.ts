/**
 * Change from a participant's baseline, said honestly: one definition for the timeline, the
 * per-participant summary export and the command line (docs/change.md gives the rules in words).
 *
 * - **Baseline.** The first k sessions of one measure and API version (shared/baseline.ts), and only
 *   when all k are present: with fewer there is "no baseline yet" and no figure.
 * - **Change.** The latest session minus the baseline mean, once a session after the baseline exists.
 * - **Change in SD, with a floor.** change / max(the participant's baseline SD, the cohort's pooled
 *   within-person SD of the same measure and API version), taking only SDs that are usable (present and
 *   above zero up to rounding). When neither is usable there is no SD-scaled change.
 * - **Reliable change index** (Jacobson & Truax 1991). RCI = change / S_diff, S_diff = √2 · SE,
 *   SE = SD₁ · √(1 − r), with SD₁ the cohort's baseline SD (the sample SD of every baseline value of
 *   every participant with a complete baseline, same measure and API version) and r the measure's
 *   test-retest reliability (shared/reliability.ts, settable per study). |RCI| ≥ 1.96 is a reliable
 *   change. Measures without a reliability get a trend and no verdict.
 * - **Trend.** The least-squares slope of every value of the series over time, per week (3 values or more).
 */
import type { BaselineStats } from './baseline';
import type { Reliability, ReliabilitySource } from './reliability';

/** |RCI| at or above this is a reliable change (two-sided p < .05). */
export const RELIABLE_RCI = 1.96;

/** Participants with a complete baseline needed before the cohort's SDs are used. */
export const MIN_COHORT_PARTICIPANTS = 2;

/** An SD at or under this fraction of the values' scale (at least 1) is zero up to rounding: degenerate. */
export const DEGENERATE_SD_FRACTION = 1e-9;

const WEEK_MS = 7 * 24 * 3600 * 1000;

/** What can be said about the latest session's change, each with its words. */
export const CHANGE_VERDICTS = [
  'reliable_increase',
  'reliable_decrease',
  'not_reliable',
  'trend_only',
  'no_cohort_sd',
  'no_session_after_baseline',
  'no_baseline_yet',
] as const;
export type ChangeVerdict = (typeof CHANGE_VERDICTS)[number];

export const CHANGE_VERDICT_LABEL: Readonly<Record<ChangeVerdict, string>> = {
  reliable_increase: `reliable increase (RCI ≥ ${RELIABLE_RCI})`,
  reliable_decrease: `reliable decrease (RCI ≤ −${RELIABLE_RCI})`,
  not_reliable: `not a reliable change (|RCI| < ${RELIABLE_RCI})`,
  trend_only: 'no published reliability for this measure: trend only, no reliable-change verdict',
  no_cohort_sd: `no reliable-change verdict: fewer than ${MIN_COHORT_PARTICIPANTS} participants with a complete baseline, or no spread between them`,
  no_session_after_baseline: 'baseline complete; no session after it yet',
  no_baseline_yet: 'no baseline yet: fewer sessions than the baseline takes',
};

export const SD_SOURCES = ['participant', 'cohort'] as const;
export type SdSource = (typeof SD_SOURCES)[number];

/** True when `sd` can divide: present, finite and above zero up to rounding at the values' scale. */
export const isUsableSd = (sd: number | null | undefined, scale: number): sd is number =>
  sd !== null &&
  sd !== undefined &&
  Number.isFinite(sd) &&
  sd > DEGENERATE_SD_FRACTION * Math.max(1, Math.abs(scale));

/** The cohort's reference for one measure and API version, over the participants with a complete baseline. */
export interface CohortReference {
  /** Participants with a complete baseline (k values). */
  readonly participants: number;
  /** Mean of all their baseline values (the scale for the degenerate-SD test). */
  readonly mean: number | null;
  /** √(Σ over participants of Σ (x − own baseline mean)² / Σ (k − 1)): the SD floor. */
  readonly pooledWithinSd: number | null;
  /** Sample SD of all their baseline values together: SD₁ of the RCI. */
  readonly baselineSd: number | null;
}

export const NO_COHORT: CohortReference = {
  participants: 0,
  mean: null,
  pooledWithinSd: null,
  baselineSd: null,
};

/** The cohort reference from each participant's k baseline values (complete baselines only, all of one k). */
export const cohortReference = (baselines: readonly (readonly number[])[]): CohortReference => {
  const full = baselines.filter((b) => b.length > 0);
  const participants = full.length;
  if (participants === 0) return NO_COHORT;
  const all = full.flat();
  const mean = all.reduce((a, b) => a + b, 0) / all.length;
  if (participants < MIN_COHORT_PARTICIPANTS)
    return { participants, mean, pooledWithinSd: null, baselineSd: null };
  let within = 0,
    df = 0;
  for (const b of full) {
    const m = b.reduce((a, x) => a + x, 0) / b.length;
    within += b.reduce((a, x) => a + (x - m) ** 2, 0);
    df += b.length - 1;
  }
  const total = all.reduce((a, x) => a + (x - mean) ** 2, 0);
  return {
    participants,
    mean,
    pooledWithinSd: df > 0 ? Math.sqrt(within / df) : null,
    baselineSd: Math.sqrt(total / (all.length - 1)),
  };
};

/**
 * The least-squares slope of value over time, fed one point at a time (in any order): co-moments are
 * updated as in Welford's method, with time in weeks from the first point, so it stays exact enough
 * over millions of values.
 */
export class Trend {
  private n = 0;
  private t0 = 0;
  private meanT = 0;
  private meanX = 0;
  private m2T = 0;
  private cTX = 0;

  add(atMs: number, x: number): void {
    if (this.n === 0) this.t0 = atMs;
    const t = (atMs - this.t0) / WEEK_MS;
    this.n++;
    const dT = t - this.meanT;
    this.meanT += dT / this.n;
    this.meanX += (x - this.meanX) / this.n;
    this.m2T += dT * (t - this.meanT);
    this.cTX += dT * (x - this.meanX);
  }

  /** Units per week; null with fewer than 3 values or all at one moment. */
  perWeek(): number | null {
    return this.n >= 3 && this.m2T > 0 ? this.cTX / this.m2T : null;
  }
}

export interface ChangeStats {
  readonly verdict: ChangeVerdict;
  /** Latest − baseline mean; null until a session after a complete baseline exists. */
  readonly change: number | null;
  readonly sdParticipant: number | null;
  readonly sdCohortWithin: number | null;
  /** The larger usable of the two; null when neither is usable. */
  readonly sdUsed: number | null;
  readonly sdSource: SdSource | null;
  readonly changeInSd: number | null;
  readonly reliability: number | null;
  readonly reliabilitySource: ReliabilitySource | null;
  /** SD₁: the cohort's baseline SD. */
  readonly rciSd: number | null;
  readonly sDiff: number | null;
  readonly rci: number | null;
  readonly trendPerWeek: number | null;
}

export interface ChangeInput {
  readonly k: number;
  /** Values in the series (this measure and API version). */
  readonly n: number;
  /** The complete baseline, or null ("no baseline yet"). */
  readonly baseline: BaselineStats | null;
  readonly latest: number;
  readonly cohort: CohortReference;
  readonly reliability: Reliability | null;
  readonly trendPerWeek: number | null;
}

export const changeStats = (i: ChangeInput): ChangeStats => {
  const none = {
    change: null,
    sdParticipant: i.baseline?.sd ?? null,
    sdCohortWithin: i.cohort.pooledWithinSd,
    sdUsed: null,
    sdSource: null,
    changeInSd: null,
    reliability: i.reliability?.r ?? null,
    reliabilitySource: i.reliability?.source ?? null,
    rciSd: i.cohort.baselineSd,
    sDiff: null,
    rci: null,
    trendPerWeek: i.trendPerWeek,
  } as const;
  const b = i.baseline;
  if (b === null || b.n < i.k) return { ...none, verdict: 'no_baseline_yet' };
  if (i.n <= i.k) return { ...none, verdict: 'no_session_after_baseline' };

  const change = i.latest - b.mean;
  const own = isUsableSd(b.sd, b.mean) ? b.sd : null;
  const floor = isUsableSd(i.cohort.pooledWithinSd, i.cohort.mean ?? b.mean) ? i.cohort.pooledWithinSd : null;
  const sdUsed = own === null ? floor : floor === null ? own : Math.max(own, floor);
  const sdSource: SdSource | null =
    sdUsed === null ? null : own !== null && sdUsed === own ? 'participant' : 'cohort';
  const scaled = { ...none, change, sdUsed, sdSource, changeInSd: sdUsed === null ? null : change / sdUsed };

  if (i.reliability === null) return { ...scaled, verdict: 'trend_only' };
  const sd1 = i.cohort.baselineSd;
  if (!isUsableSd(sd1, i.cohort.mean ?? b.mean)) return { ...scaled, verdict: 'no_cohort_sd' };
  const sDiff = Math.SQRT2 * sd1 * Math.sqrt(1 - i.reliability.r);
  const rci = change / sDiff;
  return {
    ...scaled,
    sDiff,
    rci,
    verdict:
      Math.abs(rci) >= RELIABLE_RCI ? (rci > 0 ? 'reliable_increase' : 'reliable_decrease') : 'not_reliable',
  };
};
