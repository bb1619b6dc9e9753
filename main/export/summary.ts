/**
 * Per-participant statistics, accumulated while the recordings stream past in participant and time
 * order: one accumulator per measure, emptied when the next participant starts, so memory does not
 * grow with the number of recordings. Mean and SD use Welford's update (numerically stable in one
 * pass); the baseline is the first provided value by recording time, the latest the last.
 */
import type { MeasureDef } from '../../shared/api/measures';
import type { MeasureValue, SummaryCtx, SummaryPoint } from './schema';

interface Acc {
  n: number;
  numeric: number;
  mean: number;
  m2: number;
  baseline: SummaryPoint | null;
  // The latest point is kept as fields, not an object: it changes with every value (millions of them).
  latestAt: Omit<SummaryPoint, 'value'> | null;
  latestValue: MeasureValue;
  simulated: boolean;
  versions: Set<string>;
}

const fresh = (): Acc => ({ n: 0, numeric: 0, mean: 0, m2: 0, baseline: null, latestAt: null, latestValue: 0, simulated: false, versions: new Set() });

export class ParticipantSummary {
  private readonly accs = new Map<string, Acc>();

  constructor(readonly participant: string, private readonly measures: readonly MeasureDef[]) {
    for (const m of measures) this.accs.set(m.key, fresh());
  }

  add(measureKey: string, value: MeasureValue, at: Omit<SummaryPoint, 'value'>, simulated: boolean, apiVersion: string | null): void {
    const a = this.accs.get(measureKey);
    if (!a) return;
    a.n++;
    a.baseline ??= { ...at, value };
    a.latestAt = at;
    a.latestValue = value;
    a.simulated ||= simulated;
    if (apiVersion !== null) a.versions.add(apiVersion);
    if (typeof value === 'number') {
      a.numeric++;
      const d = value - a.mean;
      a.mean += d / a.numeric;
      a.m2 += d * (value - a.mean);
    }
  }

  /** One row per measure, in catalogue order. */
  *rows(): Generator<SummaryCtx> {
    for (const m of this.measures) {
      const a = this.accs.get(m.key)!;
      const numeric = m.valueType !== 'category' && a.numeric > 0;
      yield {
        participant: this.participant, measure: m, n: a.n, baseline: a.baseline, latest: a.latestAt ? { ...a.latestAt, value: a.latestValue } : null,
        mean: numeric ? a.mean : null,
        sd: numeric && a.numeric >= 2 ? Math.sqrt(a.m2 / (a.numeric - 1)) : null,
        simulated: a.simulated, apiVersions: [...a.versions].sort(),
      };
    }
  }
}
