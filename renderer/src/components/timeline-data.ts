/**
 * What the participant page's charts are drawn from, worked out before any drawing (pure, unit-tested):
 *
 * - **Where each session sits on the chosen axis.** Date: its time. Visit: the index of the visit the
 *   study's design assigns it; several recordings in one visit sit side by side a little
 *   apart; a recording outside every visit sits between the visits around it by its day since the
 *   baseline (or after the last one without a baseline), and is said to be outside. Without a visit
 *   schedule the visit axis numbers the sessions in order and says so. Days since baseline: the calendar
 *   days from the participant's baseline date (the design's day 0); without one, days since their first
 *   session, said so.
 * - **The x axis' ticks** on the canvas: whole days on the date axis (as in the saved SVG), whole visits,
 *   or days, about one per `space` pixels of the plot's width.
 * - **Reliable-change marks.** A value after a complete baseline whose reliable change index
 *   (value − baseline mean) / S_diff reaches ±1.96 (shared/change.ts), only where the measure has a
 *   reliability and the cohort an SD (S_diff known); other measures get a trend, never a mark.
 */
import { RELIABLE_RCI } from '../../../shared/change';
import type { ChartAxis } from '../../../shared/chart-axis';
import type { Timeline } from '../../../shared/contract/timeline.contract';
import { niceTicks } from './chart-svg';

type Session = Timeline['sessions'][number];
type Series = Timeline['measures'][number]['series'][number];

export interface AxisPlacement {
  /** A session's place on the axis, from its recording time. */
  readonly xOf: (recordedAt: string) => number;
  /** First and last place (every chart of the participant shares it). */
  readonly span: readonly [number, number] | undefined;
  /** Names of the visit axis' whole-number places (visit axis with a schedule only). */
  readonly visitNames: ReadonlyMap<number, string> | null;
  /** Recordings that fall in no visit of the schedule (visit axis only). */
  readonly outside: ReadonlySet<number>;
  /** What the axis counts here, when it departs from its name (no schedule, no baseline date). */
  readonly note: string | null;
}

const DAY_MS = 86_400_000;
/** Recordings sharing one visit (or one day) are drawn this far apart, in order. */
const SIDE_BY_SIDE = { visit: 0.12, days: 0.2 } as const;

/** Places `xs` in order, moving each repeat of a place a step right of the one before it. */
const spread = (xs: readonly number[], step: number): number[] => {
  const seen = new Map<number, number>();
  return xs.map((x) => {
    const n = seen.get(x) ?? 0;
    seen.set(x, n + 1);
    return x + n * step;
  });
};

const placement = (
  sessions: readonly Session[],
  xs: readonly number[],
  extra: Pick<AxisPlacement, 'visitNames' | 'outside' | 'note'>,
): AxisPlacement => {
  const at = new Map<string, number>();
  sessions.forEach((s, i) => {
    if (!at.has(s.recordedAt)) at.set(s.recordedAt, xs[i]!);
  });
  const sorted = [...xs].sort((a, b) => a - b);
  return {
    xOf: (iso) => at.get(iso) ?? Date.parse(iso) / 1000,
    span: sorted.length ? [sorted[0]!, sorted.at(-1)!] : undefined,
    ...extra,
  };
};

/** The visit a session outside every visit sits after: its place between the visits around it by target day. */
const betweenVisits = (visits: Timeline['design']['visits'], days: number | null): number => {
  if (visits.length === 0) return 1;
  const byDay = [...visits].sort((a, b) => a.targetDay - b.targetDay);
  if (days === null) return byDay.length + 0.5;
  if (days < byDay[0]!.targetDay) return byDay[0]!.index - 0.5;
  for (let i = 0; i + 1 < byDay.length; i++) {
    const a = byDay[i]!,
      b = byDay[i + 1]!;
    if (days <= b.targetDay)
      return a.index + ((days - a.targetDay) / (b.targetDay - a.targetDay || 1)) * (b.index - a.index);
  }
  return byDay.at(-1)!.index + 0.5;
};

export const axisPlacement = (
  axis: ChartAxis,
  sessions: readonly Session[],
  design: Timeline['design'],
): AxisPlacement => {
  const none = { visitNames: null, outside: new Set<number>(), note: null };
  if (axis === 'date')
    return placement(
      sessions,
      sessions.map((s) => Date.parse(s.recordedAt) / 1000),
      none,
    );
  if (axis === 'days') {
    if (design.baseline === null || sessions.some((s) => s.daysSinceBaseline === null)) {
      const first = Date.parse(sessions[0]?.recordedAt ?? '1970-01-01T00:00:00Z');
      return placement(
        sessions,
        sessions.map((s) => (Date.parse(s.recordedAt) - first) / DAY_MS),
        { ...none, note: 'days since the first session shown: the participant has no baseline date' },
      );
    }
    return placement(
      sessions,
      spread(
        sessions.map((s) => s.daysSinceBaseline!),
        SIDE_BY_SIDE.days,
      ),
      {
        ...none,
        note:
          design.baseline.source === 'researcher'
            ? null
            : `calendar days since ${design.baseline.date}, the participant’s first recording (no baseline date set)`,
      },
    );
  }
  if (design.visits.length === 0)
    return placement(
      sessions,
      sessions.map((_, i) => i + 1),
      { ...none, note: 'the session’s number in order (1 = first session): the study has no visit schedule' },
    );
  const outside = new Set(sessions.filter((s) => s.visit === null).map((s) => s.recordingId));
  return placement(
    sessions,
    spread(
      sessions.map((s) => s.visit?.index ?? betweenVisits(design.visits, s.daysSinceBaseline)),
      SIDE_BY_SIDE.visit,
    ),
    {
      visitNames: new Map(design.visits.map((v) => [v.index, v.name])),
      outside,
      note: outside.size
        ? `the visit of the study’s schedule each recording falls in; ${outside.size} outside every visit, drawn between the visits around them`
        : null,
    },
  );
};

export interface ReliableMark {
  readonly recordingId: number;
  readonly rci: number;
  readonly direction: 'increase' | 'decrease';
}

/** The series' values after its complete baseline whose |RCI| reaches 1.96; none without a reliability or a cohort SD. */
export const reliableMarks = (s: Series, k: number): ReliableMark[] => {
  const b = s.baseline;
  const sDiff = s.change?.sDiff ?? null;
  if (!b || b.n < k || sDiff === null || !(sDiff > 0) || s.change?.reliability === null) return [];
  return s.points.slice(k).flatMap((p) => {
    if (typeof p.value !== 'number') return [];
    const rci = (p.value - b.mean) / sDiff;
    return Math.abs(rci) >= RELIABLE_RCI
      ? [
          {
            recordingId: p.recordingId,
            rci,
            direction: rci > 0 ? ('increase' as const) : ('decrease' as const),
          },
        ]
      : [];
  });
};

/** The x axis' ticks between `min` and `max` (epoch seconds, visits or days), about one per `space` of `width`. */
export const xSplits = (
  axis: ChartAxis,
  min: number,
  max: number,
  width: number,
  space: number,
): number[] => {
  const n = Math.max(2, Math.floor(width / space));
  if (axis === 'date') return niceTicks(min / 86_400, max / 86_400, n).map((d) => d * 86_400);
  const ticks = niceTicks(min, max, n);
  return axis === 'visit' ? ticks.filter((v) => Number.isInteger(v)) : ticks;
};

/** One of the participant page's two timeline answers, as its query holds it. */
export interface TimelineAnswer {
  readonly data: { readonly baselineSessions: number } | undefined;
  /** The answer to an earlier question, kept while the current one is on its way. */
  readonly isPlaceholderData: boolean;
}

/**
 * Which answer the charts are drawn from: `part` (the measures shown, asked for first) or `all` (every
 * measure, asked for in idle time). The first answer stays the source while it holds for the baseline
 * size (k) asked for: when every measure arrives, or after "Show all" or another pick (only the
 * measures asked for changed, not the sessions nor the baseline), so the charts it holds keep their data
 * and are neither made nor drawn again; measures it lacks come from `all`. Once the full answer is for
 * another k than the first (the researcher changed k), the full answer is the source.
 */
export const chartSource = (part: TimelineAnswer, all: TimelineAnswer): 'part' | 'all' => {
  const k = part.data?.baselineSessions;
  const allCurrent = all.data !== undefined && !all.isPlaceholderData;
  const partHolds =
    part.data !== undefined && (!part.isPlaceholderData || (allCurrent && all.data!.baselineSessions === k));
  if (partHolds && (!allCurrent || all.data!.baselineSessions === k)) return 'part';
  return all.data ? 'all' : 'part';
};
