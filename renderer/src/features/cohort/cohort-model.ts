/**
 * The cohort chart's model: each participant's trajectory of one measure in one API version
 * (v1.2 and v1.3 are never on one chart), coloured by the group an attribute puts them in, with each
 * group's median and interquartile band per bin (shared/cohort-stats.ts). The same model is drawn on
 * screen and saved as SVG or PNG (components/chart-svg.ts).
 */
import type { SeriesSource } from '../../../../shared/contract/timeline.contract';
import type { ChartMeasure } from '../../../../shared/timeline-measures';
import { AXIS_LABEL, type ChartAxis } from '../../../../shared/chart-axis';
import { summariseBins, type BinSummary } from '../../../../shared/cohort-stats';
import type { Cohort } from '../../../../shared/contract/cohort.contract';
import type { ChartColours } from '../../components/chart-theme';
import { niceTicks, type PlotModel } from '../../components/chart-svg';
import { axisTickLabel, paddedRange } from '../../components/timeline-axis';
import { fmtNumber, plural } from '../../lib/format';

/** Okabe and Ito's colour-blind-safe palette (the yellow left out: too light on white). */
export const GROUP_COLOURS = [
  '#0072B2',
  '#D55E00',
  '#009E73',
  '#CC79A7',
  '#E69F00',
  '#56B4E9',
  '#8C6D31',
  '#7F7F7F',
];
export const NOT_SET = '(not set)';

export interface CohortGroup {
  readonly name: string;
  readonly colour: string;
  readonly participants: readonly { code: string; points: readonly { x: number; y: number }[] }[];
  readonly bins: readonly BinSummary[];
}

const xOfPoint = (axis: ChartAxis, p: Cohort['participants'][number]['series'][number]['points'][number]) =>
  axis === 'date' ? Date.parse(p.recordedAt) / 1000 : axis === 'visit' ? p.visit : p.days;

/** The groups of the cohort for one version, by an attribute (null: one group, the whole cohort). */
export const groupsOf = (
  cohort: Cohort,
  version: SeriesSource,
  axis: ChartAxis,
  groupBy: string | null,
): CohortGroup[] => {
  const by = new Map<string, { code: string; points: { x: number; y: number }[] }[]>();
  for (const p of cohort.participants) {
    const s = p.series.find((x) => x.apiVersion === version);
    // On the visit axis, a recording outside every visit of the schedule has no place (visit null).
    const points = (s?.points ?? []).flatMap((pt) => {
      const x = xOfPoint(axis, pt);
      return typeof pt.value === 'number' && x !== null ? [{ x, y: pt.value }] : [];
    });
    if (points.length === 0) continue;
    const name = groupBy === null ? 'All participants' : (p.attributes[groupBy] ?? NOT_SET);
    by.set(name, [...(by.get(name) ?? []), { code: p.code, points }]);
  }
  return [...by]
    .sort(([a], [b]) => (a === NOT_SET ? 1 : b === NOT_SET ? -1 : a.localeCompare(b)))
    .map(([name, participants], i) => ({
      name,
      colour: GROUP_COLOURS[i % GROUP_COLOURS.length]!,
      participants,
      bins: summariseBins(
        axis,
        participants.map((p) => p.points),
      ),
    }));
};

/** Where the values come from, for titles: "API v1.3", or computed here. */
export const sourceName = (version: SeriesSource) =>
  version === 'local' ? 'computed here' : `API ${version}`;

export const cohortModel = (
  measure: ChartMeasure,
  version: SeriesSource,
  axis: ChartAxis,
  groupBy: string | null,
  groups: readonly CohortGroup[],
  colours: ChartColours,
  studyName: string,
  /** The schedule's name of a visit by its place (the visit axis); absent: "Visit n". */
  visitName?: (place: number) => string | undefined,
): PlotModel => {
  const xs = groups.flatMap((g) => g.participants.flatMap((p) => p.points.map((pt) => pt.x)));
  const ys = groups.flatMap((g) => g.participants.flatMap((p) => p.points.map((pt) => pt.y)));
  const x0 = Math.min(...xs, 0);
  const x1 = Math.max(...xs, axis === 'visit' ? 1 : 1);
  const [xmin, xmax] = paddedRange(axis, xs.length ? Math.min(...xs) : 0, xs.length ? Math.max(...xs) : 1);
  const lo0 = ys.length ? Math.min(...ys) : 0;
  const hi0 = ys.length ? Math.max(...ys) : 1;
  const pad = hi0 > lo0 ? (hi0 - lo0) * 0.08 : 1;
  const byNumber = axisTickLabel(axis, x0, x1);
  const label = (v: number) => (axis === 'visit' && visitName?.(v)) || byNumber(v);
  const xTicks =
    axis === 'date'
      ? niceTicks(xmin / 86_400, xmax / 86_400, 6).map((d) => d * 86_400)
      : niceTicks(xmin, xmax, 8).filter((v) => axis !== 'visit' || (Number.isInteger(v) && v >= 1));
  const n = groups.reduce((k, g) => k + g.participants.length, 0);
  return {
    title: `${studyName} · ${measure.label}${measure.unit ? ` (${measure.unit})` : ''} · ${sourceName(version)}`,
    subtitle: `${plural(n, 'participant')}${groupBy ? ` by ${groupBy}` : ''}: thin lines each participant, thick line the median, band the interquartile range per ${axis === 'visit' ? 'visit' : 'week'}.`,
    x: { min: xmin, max: xmax, label: AXIS_LABEL[axis], ticks: xTicks.map((v) => ({ v, label: label(v) })) },
    y: {
      min: lo0 - pad,
      max: hi0 + pad,
      label: measure.unit ? `${measure.label} (${measure.unit})` : measure.label,
      ticks: niceTicks(lo0 - pad, hi0 + pad, 5).map((v) => ({ v, label: fmtNumber(v) })),
    },
    areas: groups.map((g) => ({
      xs: g.bins.map((b) => b.at),
      lo: g.bins.map((b) => b.q1),
      hi: g.bins.map((b) => b.q3),
      colour: g.colour,
      opacity: 0.18,
    })),
    lines: [
      ...groups.flatMap((g) =>
        g.participants.map((p) => ({
          points: p.points.map((pt) => [pt.x, pt.y] as const),
          colour: g.colour,
          width: 1,
          opacity: 0.45,
          dots: 'none' as const,
        })),
      ),
      ...groups.map((g) => ({
        points: g.bins.map((b) => [b.at, b.median] as const),
        colour: g.colour,
        width: 3.5,
        dots: 'filled' as const,
      })),
    ],
    notes: groups.flatMap((g) =>
      g.bins.map((b) => ({ x: b.at, y: b.median, text: `n=${b.n}`, colour: g.colour })),
    ),
    legend: groups.map((g) => ({
      label: `${groupBy ? `${groupBy} = ` : ''}${g.name} (n = ${g.participants.length})`,
      colour: g.colour,
    })),
    colours,
  };
};
