/**
 * The time axes a study's charts can use, written once for the participant page, the cohort view and
 * the stored chart choice. With a visit schedule, "visit" is the visit a recording is assigned
 * to and "days" counts from the participant's baseline (the participant page's timeline and the cohort
 * service read them from the visit ledger); without one, "visit" is the session's place in the
 * participant's analysed sessions and "days" counts from the first analysed session (`axisValue`).
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
  visit:
    'the visit of the study’s schedule each recording is assigned to (recordings outside every visit are left off this axis); without a schedule, the session’s number in order (1 = first analysed session)',
  days: 'days since the participant’s baseline (day 0 of the schedule); without a schedule, since their first analysed session',
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
