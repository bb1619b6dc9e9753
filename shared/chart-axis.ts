/**
 * The time axes a study's charts can use, written once for the participant page, the cohort view and
 * the stored chart choice. Today "visit" is the session's place in the participant's analysed sessions
 * and "days" counts from the participant's first analysed session; when visits and baseline dates are
 * recorded (issue 16 part A), `axisValue` is the one place that reads them instead.
 */
export const CHART_AXES = ['date', 'visit', 'days'] as const;
export type ChartAxis = (typeof CHART_AXES)[number];

export const AXIS_LABEL: Readonly<Record<ChartAxis, string>> = {
  date: 'Date',
  visit: 'Visit',
  days: 'Days since baseline',
};

/** What each axis counts today, in the researcher's words (shown beside the choice). */
export const AXIS_MEANING: Readonly<Record<ChartAxis, string>> = {
  date: 'the date of each recording',
  visit: 'the session’s number in order (1 = first analysed session), until visits are recorded',
  days: 'days since the participant’s first analysed session, until a baseline date is recorded',
};

const DAY_MS = 86_400_000;

/** A point's place on an axis: epoch seconds (date), session number from 1 (visit) or days (days). */
export const axisValue = (
  axis: ChartAxis,
  p: { readonly recordedAt: string; readonly visit: number },
  firstAt: string,
): number =>
  axis === 'date'
    ? Date.parse(p.recordedAt) / 1000
    : axis === 'visit'
      ? p.visit
      : (Date.parse(p.recordedAt) - Date.parse(firstAt)) / DAY_MS;

export const DEFAULT_AXIS: ChartAxis = 'date';
