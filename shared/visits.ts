/**
 * A study's visit schedule and how recordings fall into it. Pure: the repositories read the
 * facts, this decides; the window, the command line and the exports all show what it decides.
 *
 * The rules, in order, for one recording:
 *   1. the researcher's override (a visit, or "no visit"), when there is one;
 *   2. its session label, when it names a visit (case, surrounding and repeated spaces ignored);
 *   3. its date, when it falls in a visit's window: the visit's target day from the participant's
 *      baseline, minus the window before, plus the window after (both inclusive); in overlapping
 *      windows the nearest target wins, then the earlier visit;
 *   4. otherwise no visit.
 * Days are calendar days in the study's time zone, so a recording at 23:30 local time is on that day.
 *
 * The baseline (day 0) is the date the researcher set, else the date of the participant's first usable
 * recording (uploaded with a completed analysis), else the date of their first recording of any kind
 * (so a participant whose first file was refused still has a schedule), else none: without a baseline
 * only session labels and overrides place recordings, and no visit can be said to be due.
 */
import type { VisitSource } from './states';

export interface VisitDef {
  readonly id: number;
  /** 1-based order in the schedule (the exports' `visit_index`). */
  readonly position: number;
  readonly name: string;
  /** Days from the participant's baseline (day 0). */
  readonly targetDay: number;
  readonly windowBefore: number;
  readonly windowAfter: number;
}

export type BaselineSource = 'researcher' | 'first_usable' | 'first_recording';

export interface Baseline {
  /** YYYY-MM-DD in the study's time zone. */
  readonly date: string;
  readonly source: BaselineSource;
}

export interface VisitAssignment {
  readonly visitId: number | null;
  readonly source: VisitSource;
  /** Calendar days from the baseline to the recording's date; null without a baseline. */
  readonly daysSinceBaseline: number | null;
}

const DAY_MS = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written YYYY-MM-DD. */
export const isDate = (s: string): boolean => {
  const m = DATE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === s;
};

const dayNumber = (date: string): number => Math.round(Date.parse(`${date}T00:00:00Z`) / DAY_MS);

/** Whole calendar days from `from` to `to` (YYYY-MM-DD), negative when `to` is earlier. */
export const daysBetween = (from: string, to: string): number => dayNumber(to) - dayNumber(from);

export const addDays = (date: string, days: number): string =>
  new Date((dayNumber(date) + days) * DAY_MS).toISOString().slice(0, 10);

const formatters = new Map<string, Intl.DateTimeFormat>();
/** The calendar date (YYYY-MM-DD) of an instant in a time zone. */
export const localDate = (iso: string, timeZone: string): string => {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(new Date(iso)).map((p) => [p.type, p.value]));
  return `${parts['year']}-${parts['month']}-${parts['day']}`;
};

/** A session label or visit name as compared: trimmed, lower case, inner spaces collapsed. */
export const visitKey = (s: string): string => s.trim().replace(/\s+/g, ' ').toLowerCase();

export interface BaselineFacts {
  /** The date the researcher set, if any. */
  readonly set: string | null;
  /** The participant's recordings (cancelled ones left out): their local date and whether usable. */
  readonly recordings: readonly { readonly date: string; readonly usable: boolean }[];
}

export const baselineOf = (f: BaselineFacts): Baseline | null => {
  if (f.set !== null) return { date: f.set, source: 'researcher' };
  let usable: string | null = null;
  let any: string | null = null;
  for (const r of f.recordings) {
    if (any === null || r.date < any) any = r.date;
    if (r.usable && (usable === null || r.date < usable)) usable = r.date;
  }
  if (usable !== null) return { date: usable, source: 'first_usable' };
  return any !== null ? { date: any, source: 'first_recording' } : null;
};

/** The first and last day of a visit's window, for a participant with this baseline. */
export const windowOf = (v: VisitDef, baseline: string): { readonly from: string; readonly to: string } => ({
  from: addDays(baseline, v.targetDay - v.windowBefore),
  to: addDays(baseline, v.targetDay + v.windowAfter),
});

export interface AssignFacts {
  readonly session: string | null;
  /** The recording's calendar date in the study's time zone. */
  readonly date: string;
  /** The researcher's override: a visit id, null for "no visit", undefined when there is none. */
  readonly override?: number | null | undefined;
}

export const assignVisit = (
  visits: readonly VisitDef[],
  baseline: string | null,
  r: AssignFacts,
): VisitAssignment => {
  const days = baseline === null ? null : daysBetween(baseline, r.date);
  if (r.override !== undefined) return { visitId: r.override, source: 'researcher', daysSinceBaseline: days };
  if (r.session !== null && r.session.trim() !== '') {
    const key = visitKey(r.session);
    const named = visits.find((v) => visitKey(v.name) === key);
    if (named) return { visitId: named.id, source: 'session', daysSinceBaseline: days };
  }
  if (days !== null) {
    let best: VisitDef | null = null;
    for (const v of visits) {
      if (days < v.targetDay - v.windowBefore || days > v.targetDay + v.windowAfter) continue;
      const d = Math.abs(days - v.targetDay);
      const bd = best === null ? Infinity : Math.abs(days - best.targetDay);
      if (d < bd || (d === bd && best !== null && v.position < best.position)) best = v;
    }
    if (best) return { visitId: best.id, source: 'window', daysSinceBaseline: days };
  }
  return { visitId: null, source: 'none', daysSinceBaseline: days };
};

/** Problems with a schedule as the researcher wrote it, in their words; empty when it can be saved. */
export const scheduleProblems = (
  visits: readonly Pick<VisitDef, 'name' | 'targetDay' | 'windowBefore' | 'windowAfter'>[],
): string[] => {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const v of visits) {
    const key = visitKey(v.name);
    if (key === '') out.push('Every visit needs a name.');
    else if (seen.has(key)) out.push(`Two visits are named "${v.name}": each name must be unique.`);
    seen.add(key);
    if (v.windowBefore < 0 || v.windowAfter < 0) out.push(`"${v.name}": windows are whole days, 0 or more.`);
  }
  const sorted = [...visits].sort((a, b) => a.targetDay - b.targetDay);
  for (let i = 1; i < sorted.length; i++)
    if (sorted[i]!.targetDay === sorted[i - 1]!.targetDay)
      out.push(`"${sorted[i - 1]!.name}" and "${sorted[i]!.name}" have the same target day.`);
  return out;
};
