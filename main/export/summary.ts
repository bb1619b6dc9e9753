/**
 * Per-participant statistics, accumulated while the recordings stream past in participant and time
 * order (ties by recording number): one accumulator per measure and API version, emptied when the next
 * participant starts, so memory does not grow with the number of recordings.
 *
 * The baseline and the change are the participant timeline's (shared/baseline.ts, shared/change.ts),
 * never a second definition: one series per API version (v1.2 and v1.3 results come from different
 * models and field definitions), baseline = mean and sample SD of the first k values of that series once
 * all k are present, change of a later latest value, in SDs over the floored SD, and its reliable change
 * index against the study's cohort reference. A `BaselineWindow` keeps only those first k values; the
 * mean and SD of all values use Welford's update (numerically stable in one pass), the trend a co-moment
 * update of the same kind.
 */
import type { MeasureDef } from '../../shared/api/measures';
import { BaselineWindow, DEFAULT_BASELINE_SESSIONS } from '../../shared/baseline';
import { changeStats, NO_COHORT, Trend, type CohortReference } from '../../shared/change';
import { reliabilityOf } from '../../shared/reliability';
import type { MeasureValue, SummaryAt, SummaryCtx } from './schema';

/** One participant's values of one measure through one API version. */
interface Acc {
  readonly version: string;
  n: number;
  mean: number;
  m2: number;
  /** Numeric measures: the first k values (the baseline). Null for categories. */
  readonly window: BaselineWindow | null;
  baselineN: number;
  baselineFrom: SummaryAt | null;
  baselineTo: SummaryAt | null;
  baselineCategory: string | null;
  // The latest point is kept as fields, not an object: it changes with every value (millions of them).
  latestAt: SummaryAt | null;
  latestValue: MeasureValue;
  simulated: boolean;
  /** Numeric measures: the slope over time. Null for categories. */
  readonly trend: Trend | null;
}

/** What the summary needs of the study beyond the values: its cohort reference and its reliabilities. */
export interface SummaryReference {
  cohort(measureKey: string, apiVersion: string): CohortReference;
  readonly reliabilities: ReadonlyMap<string, number>;
}

const NO_REFERENCE: SummaryReference = { cohort: () => NO_COHORT, reliabilities: new Map() };

interface PerMeasure {
  readonly def: MeasureDef;
  readonly numeric: boolean;
  /** One accumulator per API version with values (at most two), created when its first value comes. */
  readonly accs: Acc[];
}

export class ParticipantSummary {
  private readonly byKey = new Map<string, PerMeasure>();
  private readonly order: PerMeasure[];
  /** k: sessions in the baseline. */
  private readonly sessions: number;

  constructor(
    readonly participant: string,
    measures: readonly MeasureDef[],
    baselineSessions = DEFAULT_BASELINE_SESSIONS,
    private readonly reference: SummaryReference = NO_REFERENCE,
  ) {
    this.sessions = new BaselineWindow(baselineSessions).sessions;
    this.order = measures.map((def) => ({ def, numeric: def.valueType !== 'category', accs: [] }));
    for (const m of this.order) this.byKey.set(m.def.key, m);
  }

  /**
   * One provided value, in time order. Values without an API version (a recording that was never
   * uploaded, which the workstation never stores values for) and values of the wrong type for their
   * measure are not counted, as in the timeline.
   */
  add(
    measureKey: string,
    value: MeasureValue,
    at: SummaryAt,
    simulated: boolean,
    apiVersion: string | null,
  ): void {
    const m = this.byKey.get(measureKey);
    if (!m || apiVersion === null || (typeof value === 'number') !== m.numeric) return;
    let a: Acc | undefined;
    for (const x of m.accs)
      if (x.version === apiVersion) {
        a = x;
        break;
      }
    if (!a) {
      a = {
        version: apiVersion,
        n: 0,
        mean: 0,
        m2: 0,
        window: m.numeric ? new BaselineWindow(this.sessions) : null,
        baselineN: 0,
        baselineFrom: null,
        baselineTo: null,
        baselineCategory: null,
        latestAt: null,
        latestValue: 0,
        simulated: false,
        trend: m.numeric ? new Trend() : null,
      };
      m.accs.push(a);
    }
    a.n++;
    // Checked here first so that no point is allocated once the baseline is complete (millions of values).
    if (
      a.baselineN < this.sessions &&
      (a.window?.add({ recordedAt: at.recordedAt, value: value as number }) ?? true)
    ) {
      a.baselineN++;
      a.baselineFrom ??= at;
      a.baselineTo = at;
      if (typeof value === 'string') a.baselineCategory ??= value;
    }
    a.latestAt = at;
    a.latestValue = value;
    a.simulated ||= simulated;
    if (typeof value === 'number') {
      const d = value - a.mean;
      a.mean += d / a.n;
      a.m2 += d * (value - a.mean);
      a.trend?.add(Date.parse(at.recordedAt), value);
    }
  }

  /** Rows in catalogue order, each measure's versions in version order; a measure without values gets one row with n = 0. */
  *rows(): Generator<SummaryCtx> {
    for (const m of this.order) {
      if (m.accs.length === 0) {
        yield {
          participant: this.participant,
          measure: m.def,
          apiVersion: null,
          n: 0,
          baselineN: 0,
          baselineFrom: null,
          baselineTo: null,
          baseline: null,
          baselineSd: null,
          baselineCategory: null,
          latest: null,
          change: null,
          mean: null,
          sd: null,
          simulated: false,
        };
        continue;
      }
      for (const a of [...m.accs].sort((x, y) =>
        x.version < y.version ? -1 : x.version > y.version ? 1 : 0,
      )) {
        const stats = a.window?.stats() ?? null;
        const change = m.numeric
          ? changeStats({
              k: this.sessions,
              n: a.n,
              baseline: stats,
              latest: a.latestValue as number,
              cohort: this.reference.cohort(m.def.key, a.version),
              reliability: reliabilityOf(m.def.key, this.reference.reliabilities),
              trendPerWeek: a.trend?.perWeek() ?? null,
            })
          : null;
        yield {
          participant: this.participant,
          measure: m.def,
          apiVersion: a.version,
          n: a.n,
          baselineN: a.baselineN,
          baselineFrom: a.baselineFrom,
          baselineTo: a.baselineTo,
          baseline: stats?.mean ?? null,
          baselineSd: stats?.sd ?? null,
          baselineCategory: a.baselineCategory,
          latest: a.latestAt ? { ...a.latestAt, value: a.latestValue } : null,
          change,
          mean: m.numeric ? a.mean : null,
          sd: m.numeric && a.n >= 2 ? Math.sqrt(a.m2 / (a.n - 1)) : null,
          simulated: a.simulated,
        };
      }
    }
  }
}
