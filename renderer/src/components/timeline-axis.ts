/**
 * A timeline chart's x axis: where a session sits, the tick labels (dates, visits, days) and the range drawn.
 */
import { type ChartAxis } from '../../../shared/chart-axis';
import { fmtNumber } from '../lib/format';

/** A session's place on the chosen axis (epoch seconds, visit number or days), from its recording time. */
export type XOf = (recordedAt: string) => number;

/** The date axis: epoch seconds. */
export const dateX: XOf = (iso) => Date.parse(iso) / 1000;

const axisDates = new Map<boolean, Intl.DateTimeFormat>();
/** Axis dates: day and month, with the year once the span passes a year's turn (two formatters, made once). */
const axisDate = (spanYears: boolean) => {
  let f = axisDates.get(spanYears);
  if (!f)
    axisDates.set(
      spanYears,
      (f = new Intl.DateTimeFormat(
        undefined,
        spanYears ? { month: 'short', year: 'numeric' } : { month: 'short', day: 'numeric' },
      )),
    );
  return f;
};

/**
 * Makes and uses once the formatters a chart's first drawing needs (the axis' dates, numbers): the
 * first Intl formatter of a kind loads the locale's data (~15 ms under load), which the page does in
 * its idle time while the timeline is on its way, not between the answer and the charts.
 */
export const warmChartFormatters = () => {
  const now = new Date();
  axisDate(false).format(now);
  axisDate(true).format(now);
  fmtNumber(1.5);
};

/** Tick labels of an axis: dates; "visit 3"; "day 14". */
export const axisTickLabel = (
  axis: ChartAxis,
  x0: number,
  x1: number,
  /** The visit axis' names by index (the study's schedule); absent, numbers. */
  visitNames?: ReadonlyMap<number, string> | null,
): ((v: number) => string) => {
  if (axis === 'visit')
    return (v) => (Number.isInteger(v) ? (visitNames ? (visitNames.get(v) ?? '') : String(v)) : '');
  if (axis === 'days') return (v) => fmtNumber(v, 0);
  const fmt = axisDate(new Date(x0 * 1000).getFullYear() !== new Date(x1 * 1000).getFullYear());
  return (v) => fmt.format(new Date(v * 1000));
};

/** The x range drawn for a span on an axis: a little room either side. */
export const paddedRange = (axis: ChartAxis, x0: number, x1: number): [number, number] => {
  const pad =
    axis === 'visit'
      ? 0.5
      : axis === 'days'
        ? Math.max((x1 - x0) * 0.03, 1)
        : Math.max((x1 - x0) * 0.03, 86_400);
  return [x0 - pad, x1 + pad];
};
