/**
 * What a timeline chart draws, in the chart's own values (renderer/src/components/timeline-plot-data.ts):
 * the y range around the values, the baseline bands, the flagged values ringed, the specification's edges
 * drawn when a value lies beyond them, the markers' places above a session and the recording a click opens.
 */
import { describe, expect, it } from 'vitest';
import {
  baselineBands,
  flaggedPoints,
  markerOffset,
  prepare,
  rangeEdges,
  recordingAt,
  spanOf,
} from '../../../renderer/src/components/timeline-plot-data';
import type { ChartSeries } from '../../../renderer/src/components/timeline-types';
import { CHART_MEASURES } from '../../../shared/timeline-measures';

const unitRange = CHART_MEASURES.find(
  (m) => m.valueType === 'number' && m.range?.[0] === 0 && m.range[1] === 1,
)!;
const category = CHART_MEASURES.find((m) => m.valueType === 'category' && m.allowed)!;
const day = (d: number) => `2026-03-${String(d).padStart(2, '0')}T09:00:00Z`;
const xOf = (iso: string) => Number(iso.slice(8, 10));
const flag = { code: 'probability_out_of_range' as const, received: '1.4', expected: '0 to 1' };

const series = (
  values: (number | string)[],
  opts: Partial<Pick<ChartSeries, 'apiVersion' | 'baseline' | 'excluded'>> & { flagged?: number[] } = {},
): ChartSeries => ({
  apiVersion: opts.apiVersion ?? 'v1.3',
  points: values.map((value, i) => ({
    recordingId: 100 + i,
    recordedAt: day(i + 1),
    value,
    flags: opts.flagged?.includes(i) ? [flag] : [],
  })),
  excluded: opts.excluded ?? [],
  baseline: opts.baseline ?? null,
  baselinePresent: 0,
  latest: null,
  change: null,
});

describe('the y range of a chart', () => {
  it('leaves room around the values but stops at the specification’s range', () => {
    const d = prepare(unitRange, [series([0.2, 0.5, 0.95])], xOf);
    expect(d.xs).toEqual([1, 2, 3]);
    expect(d.hi).toBe(1);
    expect(d.lo).toBeCloseTo(0.2 - 0.75 * 0.12);
    expect(d.exceeded).toBeNull();
  });
  it('never clamps a value beyond the specification away, and says which range it passed', () => {
    const d = prepare(unitRange, [series([0.2, 1.4])], xOf);
    expect(d.hi).toBeGreaterThan(1.4);
    expect(d.exceeded).toEqual([0, 1]);
  });
  it('is 0 to 1 when there is no value at all', () => {
    const d = prepare(unitRange, [series([])], xOf);
    expect([d.lo, d.hi, d.exceeded]).toEqual([0, 1, null]);
  });
  it('gives a categorical measure one step per level, and its excluded values off the line', () => {
    const levels = category.allowed!;
    const d = prepare(
      category,
      [
        series([levels[1]!, levels[0]!], {
          excluded: [{ recordingId: 7, recordedAt: day(5), value: levels[1]!, flags: [] }],
        }),
      ],
      xOf,
    );
    expect(d.levels).toEqual([...levels]);
    expect([d.lo, d.hi]).toEqual([-0.5, levels.length - 0.5]);
    expect(d.ys).toEqual([[1, 0, null]]);
    expect(d.excluded).toEqual([{ x: 5, y: 1, recordingId: 7 }]);
  });
});

describe('the specification’s edges', () => {
  it('are drawn only when a value lies beyond them, and only those inside the range shown', () => {
    expect(rangeEdges({ exceeded: null, lo: 0, hi: 1 })).toEqual([]);
    const edges = rangeEdges({ exceeded: [0, 1], lo: 0.1, hi: 1.5 });
    expect(edges).toEqual([{ value: 1, label: 'specification maximum 1', labelAbove: true }]);
  });
});

describe('baseline bands', () => {
  const baseline = { n: 2, mean: 0.5, sd: 0.1, from: day(1), to: day(2) };
  it('run from the first baseline session to the series’ last point, mean ± 1 SD', () => {
    expect(baselineBands([series([0.4, 0.6, 0.5, 0.7], { baseline })], xOf)).toEqual([
      { source: 'v1.3', from: 1, to: 2, last: 4, mean: 0.5, low: 0.4, high: 0.6, filled: true },
    ]);
  });
  it('are a mean line alone when the SD is unknown, and absent without a baseline', () => {
    const [band] = baselineBands([series([0.4, 0.6], { baseline: { ...baseline, sd: null } })], xOf);
    expect(band).toMatchObject({ low: 0.5, high: 0.5, filled: false });
    expect(baselineBands([series([0.4])], xOf)).toEqual([]);
  });
});

describe('flagged values', () => {
  it('are ringed where they are drawn, in each series', () => {
    const s = [
      series([0.2, 1.4, 0.3], { flagged: [1] }),
      series([0.1], { apiVersion: 'v1.2', flagged: [0] }),
    ];
    const d = prepare(unitRange, s, xOf);
    expect(flaggedPoints(s, d, xOf)).toEqual([
      { x: 2, y: 1.4 },
      { x: 1, y: 0.1 },
    ]);
  });
});

describe('the markers above a session', () => {
  it('are centred on the session, side by side', () => {
    expect([0, 1, 2].map((i) => markerOffset(i, 3))).toEqual([-1, 0, 1]);
    expect(markerOffset(0, 1)).toBe(0);
  });
});

describe('a click on the chart', () => {
  const s = [
    series([0.2, 0.3], { excluded: [{ recordingId: 9, recordedAt: day(3), value: 0.9, flags: [] }] }),
  ];
  const d = prepare(unitRange, s, xOf);
  it('opens the recording at the place clicked, kept or excluded', () => {
    expect(recordingAt(s, d.xs, xOf, 1)).toBe(101);
    expect(recordingAt(s, d.xs, xOf, 2)).toBe(9);
  });
  it('opens nothing away from a point', () => {
    expect(recordingAt(s, d.xs, xOf, null)).toBeNull();
    expect(recordingAt(s, d.xs, xOf, 7)).toBeNull();
  });
});

describe('the span shown', () => {
  it('is the participant’s, shared by every chart, or else the chart’s own first to last place', () => {
    expect(spanOf([3, 9], { xs: [4, 5] })).toEqual([3, 9]);
    expect(spanOf(undefined, { xs: [4, 5] })).toEqual([4, 5]);
    expect(spanOf(undefined, { xs: [] })).toEqual([0, 1]);
  });
});
