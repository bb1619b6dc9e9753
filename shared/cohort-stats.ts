/**
 * The cohort view's summary: per time bin (a visit, or a week of days or dates), the median
 * and the interquartile range of one value per participant, per group. A participant with several
 * sessions in one bin counts once (the mean of their values there), so no one weighs more for recording
 * more often. Quartiles are type 7 (linear between order statistics: R's and numpy's default).
 */
import type { ChartAxis } from './chart-axis';

/** A bin's width on each axis: one visit; seven days; seven days of dates (in seconds). */
export const BIN_WIDTH: Readonly<Record<ChartAxis, number>> = { visit: 1, days: 7, date: 7 * 86_400 };

/** The bin a point falls in, named by the bin's start on the axis (visits are their own bins). */
export const binOf = (axis: ChartAxis, x: number): number =>
  axis === 'visit' ? Math.round(x) : Math.floor(x / BIN_WIDTH[axis]) * BIN_WIDTH[axis];

/** The q-quantile of sorted values (type 7); NaN for none. */
export const quantile = (sorted: readonly number[], q: number): number => {
  if (sorted.length === 0) return NaN;
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
};

export interface BinSummary {
  /** The bin's start on the axis. */
  readonly bin: number;
  /** Where the bin is drawn: its middle (a visit's own number). */
  readonly at: number;
  /** Participants with a value in the bin. */
  readonly n: number;
  readonly median: number;
  readonly q1: number;
  readonly q3: number;
}

/** Median and quartiles per bin, over one value per participant and bin. */
export const summariseBins = (
  axis: ChartAxis,
  participants: readonly (readonly { readonly x: number; readonly y: number }[])[],
): BinSummary[] => {
  const byBin = new Map<number, number[]>();
  for (const points of participants) {
    const mine = new Map<number, number[]>();
    for (const p of points) {
      const b = binOf(axis, p.x);
      mine.set(b, [...(mine.get(b) ?? []), p.y]);
    }
    for (const [b, ys] of mine)
      byBin.set(b, [...(byBin.get(b) ?? []), ys.reduce((s, y) => s + y, 0) / ys.length]);
  }
  return [...byBin]
    .sort(([a], [b]) => a - b)
    .map(([bin, ys]) => {
      const sorted = [...ys].sort((a, b) => a - b);
      return {
        bin,
        at: axis === 'visit' ? bin : bin + BIN_WIDTH[axis] / 2,
        n: sorted.length,
        median: quantile(sorted, 0.5),
        q1: quantile(sorted, 0.25),
        q3: quantile(sorted, 0.75),
      };
    });
};
