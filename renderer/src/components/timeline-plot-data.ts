/**
 * What one timeline chart draws, in the chart's own values (no canvas, no pixels): the places and values
 * of its series, its y range, its excluded values and marks, the baseline bands, the flagged values, the
 * specification's edges and the point a click lands on. The canvas (timeline-canvas.ts) and the saved
 * figure (TimelineChart's plot model) draw from the same answers.
 */
import { type ChartAxis } from '../../../shared/chart-axis';
import { type SeriesSource } from '../../../shared/contract/timeline.contract';
import { type ChartMeasure } from '../../../shared/timeline-measures';
import { fmtNumber } from '../lib/format';
import { reliableMarks, type ReliableMark } from './timeline-data';
import { type ChartSeries } from './timeline-types';
import { levelsOf } from './timeline-sentences';
import { type XOf } from './timeline-axis';

export interface Prepared {
  xs: number[];
  ys: (number | null)[][];
  levels: string[] | null;
  lo: number;
  hi: number;
  /** The specification's range, when a kept value lies outside it (drawn as dotted lines). */
  exceeded: readonly [number, number] | null;
  /** Values of excluded recordings: drawn as crosses, off the lines. */
  excluded: { x: number; y: number; recordingId: number }[];
}

/** The y range around the values: a little room either side, stopping at the specification's range. */
const valueRange = (
  vals: readonly number[],
  range: ChartMeasure['range'],
): Pick<Prepared, 'lo' | 'hi' | 'exceeded'> => {
  if (vals.length === 0) return { lo: 0, hi: 1, exceeded: null };
  const min = Math.min(...vals);
  const max = Math.max(...vals);
  const pad = max > min ? (max - min) * 0.12 : Math.max(Math.abs(max) * 0.1, 1);
  let lo = min - pad;
  let hi = max + pad;
  // The padding stops at the specification's range; a kept value outside it is never clamped away.
  if (range) {
    if (min >= range[0]) lo = Math.max(lo, range[0]);
    if (max <= range[1]) hi = Math.min(hi, range[1]);
  }
  const exceeded = range && (min < range[0] || max > range[1]) ? range : null;
  return { lo, hi, exceeded };
};

/** A chart's places (sorted, shared by its series), each series' values at them, its range and excluded values. */
export const prepare = (measure: ChartMeasure, series: readonly ChartSeries[], xOf: XOf): Prepared => {
  const levels = measure.valueType === 'category' ? levelsOf(measure, series) : null;
  const toY = (v: number | string) => (levels ? levels.indexOf(String(v)) : typeof v === 'number' ? v : null);
  const xs = [
    ...new Set(series.flatMap((s) => [...s.points, ...s.excluded].map((p) => xOf(p.recordedAt)))),
  ].sort((a, b) => a - b);
  const at = new Map(xs.map((x, i) => [x, i]));
  const ys = series.map((s) => {
    const y: (number | null)[] = xs.map(() => null);
    for (const p of s.points) y[at.get(xOf(p.recordedAt))!] = toY(p.value);
    return y;
  });
  const excluded = series.flatMap((s) =>
    s.excluded.flatMap((p) => {
      const y = toY(p.value);
      return y === null || y < 0 ? [] : [{ x: xOf(p.recordedAt), y, recordingId: p.recordingId }];
    }),
  );
  if (levels) return { xs, ys, levels, lo: -0.5, hi: levels.length - 0.5, exceeded: null, excluded };
  const vals = [
    ...ys.flat().filter((v): v is number => v !== null),
    ...excluded.map((e) => e.y),
    ...series.flatMap((s) =>
      s.baseline ? [s.baseline.mean - (s.baseline.sd ?? 0), s.baseline.mean + (s.baseline.sd ?? 0)] : [],
    ),
  ];
  return { xs, ys, levels: null, excluded, ...valueRange(vals, measure.range) };
};

/** What is marked on one chart beyond its lines: reliable changes, visits' names, recordings outside every visit. */
export interface ChartMarks {
  readonly reliable: readonly (ReliableMark & { x: number; y: number; source: SeriesSource })[];
  /** Places of recordings outside every visit (visit axis). */
  readonly outside: readonly number[];
  readonly visitNames: ReadonlyMap<number, string> | null;
}

/** A chart's marks on the axis shown: reliable changes, recordings outside every visit, the visits' names. */
export const marksOf = (
  series: readonly ChartSeries[],
  baselineSessions: number,
  xOf: XOf,
  axis: ChartAxis,
  outside: ReadonlySet<number> | undefined,
  visitNames: ReadonlyMap<number, string> | null,
): ChartMarks => {
  const reliable = series.flatMap((s) =>
    reliableMarks(s, baselineSessions).map((r) => {
      const p = s.points.find((x) => x.recordingId === r.recordingId)!;
      return { ...r, x: xOf(p.recordedAt), y: p.value as number, source: s.apiVersion };
    }),
  );
  const mine = axis === 'visit' && outside?.size ? series.flatMap((s) => [...s.points, ...s.excluded]) : [];
  return {
    reliable,
    outside: [...new Set(mine.filter((p) => outside!.has(p.recordingId)).map((p) => xOf(p.recordedAt)))],
    visitNames: axis === 'visit' ? visitNames : null,
  };
};

/** The x span a chart shows: the participant's shared span, else its own first to last place. */
export const spanOf = (
  span: readonly [number, number] | undefined,
  data: Pick<Prepared, 'xs'>,
): readonly [number, number] => span ?? [data.xs[0] ?? 0, data.xs.at(-1) ?? 1];

/** A series' baseline band: mean ± 1 SD from its first baseline session to its last point. */
export interface BaselineBand {
  source: SeriesSource;
  /** The first and last sessions that formed the baseline, and the series' last point. */
  from: number;
  to: number;
  last: number;
  mean: number;
  /** mean ± SD (both the mean when the SD is unknown). */
  low: number;
  high: number;
  /** Whether there is a spread to fill (an SD other than 0). */
  filled: boolean;
}

/** The baseline band of each series that has a baseline and at least one point. */
export const baselineBands = (series: readonly ChartSeries[], xOf: XOf): BaselineBand[] =>
  series.flatMap((s) => {
    const b = s.baseline;
    const last = s.points.at(-1);
    if (!b || !last) return [];
    const sd = b.sd ?? 0;
    return [
      {
        source: s.apiVersion,
        from: xOf(b.from),
        to: xOf(b.to),
        last: xOf(last.recordedAt),
        mean: b.mean,
        low: b.mean - sd,
        high: b.mean + sd,
        filled: Boolean(b.sd),
      },
    ];
  });

/** The places and values of flagged values that are drawn (a ring around each). */
export const flaggedPoints = (
  series: readonly ChartSeries[],
  data: Pick<Prepared, 'xs' | 'ys'>,
  xOf: XOf,
): { x: number; y: number }[] => {
  const at = new Map(data.xs.map((x, i) => [x, i]));
  return series.flatMap((s, si) =>
    s.points.flatMap((p) => {
      if (p.flags.length === 0) return [];
      const i = at.get(xOf(p.recordedAt)) ?? -1;
      const y = data.ys[si]?.[i];
      return y === null || y === undefined ? [] : [{ x: data.xs[i]!, y }];
    }),
  );
};

/**
 * The specification's edges inside the y range shown, when a kept value lies beyond the range: each with
 * its label, written above the maximum's line and below the minimum's.
 */
export const rangeEdges = (
  data: Pick<Prepared, 'exceeded' | 'lo' | 'hi'>,
): { value: number; label: string; labelAbove: boolean }[] => {
  if (!data.exceeded) return [];
  const [min, max] = data.exceeded;
  return [
    { value: max, label: `specification maximum ${fmtNumber(max)}`, labelAbove: true },
    { value: min, label: `specification minimum ${fmtNumber(min)}`, labelAbove: min === max },
  ].filter((e) => e.value >= data.lo && e.value <= data.hi);
};

/** Where the i-th of `count` markers above one session sits, in marker steps from the session's place. */
export const markerOffset = (i: number, count: number): number => i - (count - 1) / 2;

/** The recording at a place of the chart (a click on a point opens it), kept or excluded. */
export const recordingAt = (
  series: readonly ChartSeries[],
  xs: readonly number[],
  xOf: XOf,
  index: number | null | undefined,
): number | null => {
  if (index === null || index === undefined) return null;
  const hit = series
    .flatMap((s) => [...s.points, ...s.excluded])
    .find((pt) => xOf(pt.recordedAt) === xs[index]);
  return hit ? hit.recordingId : null;
};
