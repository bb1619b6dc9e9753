/**
 * Timestamps as the exports write them: UTC in ISO 8601 with `Z` (R, pandas and Frictionless read it),
 * and the same instant as a local wall-clock time `YYYY-MM-DD HH:MM:SS` in the export's time zone,
 * which Excel parses as a date (it does not parse the `T…Z` form), with its UTC offset.
 * Also turns the request's date bounds into UTC instants.
 */
import type { ExportRequest } from '../../shared/export';
import type { Selection } from '../db/repos/export-selection.repo';
import { zonedWallTimeToUtc, zoneOffset } from '../wall-time';

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/** `2024-03-05T09:30:00Z`; fractional seconds only when there are some. Null for a missing or unreadable time. */
const CANONICAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export const utcCell = (iso: string | null): string | null => {
  if (iso === null) return null;
  // The database stores Date#toISOString: take it as it is (parsing and formatting again costs a second per 100,000 recordings).
  if (CANONICAL.test(iso)) return iso.endsWith('.000Z') ? `${iso.slice(0, 19)}Z` : iso;
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return null;
  const s = new Date(ms).toISOString();
  return s.endsWith('.000Z') ? `${s.slice(0, 19)}Z` : s;
};

export interface LocalTime {
  /** `YYYY-MM-DD HH:MM:SS` (fractions of a second dropped: Excel and the codebook's format have none). */
  readonly local: string;
  /** `+01:00`, `-05:00`, `+00:00`. */
  readonly offset: string;
}

const DAY = 86_400_000;

/**
 * A formatter of instants into one zone's wall-clock time. Asking Intl costs microseconds, and an
 * export formats hundreds of thousands of times, so the zone's offset is looked up once per UTC day:
 * when the offsets at its start, middle and end agree, no clock change falls inside it (zones change
 * at most once in a day) and that offset holds for the whole day; otherwise each instant of that day
 * is looked up on its own.
 */
export const zonedClock = (timeZone: string): ((iso: string | null) => LocalTime | null) => {
  /** Offset in whole seconds at an instant. */
  const offsetAt = (ms: number): number => Math.round(zoneOffset(ms, timeZone) / 1000);
  const byDay = new Map<number, number | null>();
  const offsetOf = (ms: number): number => {
    const day = Math.floor(ms / DAY);
    let known = byDay.get(day);
    if (known === undefined) {
      if (byDay.size > 100_000) byDay.clear();
      const a = offsetAt(day * DAY),
        b = offsetAt(day * DAY + DAY / 2),
        c = offsetAt((day + 1) * DAY - 1000);
      known = a === b && b === c ? a : null;
      byDay.set(day, known);
    }
    return known ?? offsetAt(ms);
  };
  return (iso) => {
    if (iso === null) return null;
    const ms = Date.parse(iso);
    if (!Number.isFinite(ms)) return null;
    const offsetS = offsetOf(ms);
    const wall = new Date(Math.floor(ms / 1000) * 1000 + offsetS * 1000).toISOString();
    const offsetMin = Math.round(offsetS / 60);
    const a = Math.abs(offsetMin);
    return {
      local: `${wall.slice(0, 10)} ${wall.slice(11, 19)}`,
      offset: `${offsetMin < 0 ? '-' : '+'}${pad(Math.floor(a / 60))}:${pad(a % 60)}`,
    };
  };
};

/** The first instant of a calendar day in a zone (midnight, or the first minute after it that exists). */
const dayStartUtc = (y: number, m: number, d: number, timeZone: string): number => {
  const day = new Date(Date.UTC(y, m - 1, d)); // normalises day 32 into the next month
  for (let minute = 0; minute < 180; minute++) {
    const t = zonedWallTimeToUtc(
      {
        year: day.getUTCFullYear(),
        month: day.getUTCMonth() + 1,
        day: day.getUTCDate(),
        hour: Math.floor(minute / 60),
        minute: minute % 60,
        second: 0,
      },
      timeZone,
    );
    if (t !== null) return t;
  }
  return day.getTime();
};

/**
 * A request bound as a UTC instant (ms). A date is the whole day in `timeZone`: `from` its first
 * instant, `to` its last millisecond. An instant is taken as it is; both bounds are inclusive.
 */
export const boundToUtcMs = (bound: string, timeZone: string, side: 'from' | 'to'): number => {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(bound);
  if (d === null) return Date.parse(bound);
  const [y, m, day] = [Number(d[1]), Number(d[2]), Number(d[3])];
  return side === 'from' ? dayStartUtc(y, m, day, timeZone) : dayStartUtc(y, m, day + 1, timeZone) - 1;
};

/** The request as the repository selects it: its filters, its date bounds as UTC instants (Date#toISOString). */
export const utcSelection = (req: ExportRequest): Selection => {
  const utc = (bound: string | undefined, side: 'from' | 'to') =>
    bound === undefined ? undefined : new Date(boundToUtcMs(bound, req.timeZone, side)).toISOString();
  return {
    studyId: req.studyId,
    participants: req.participants,
    fromUtc: utc(req.from, 'from'),
    toUtc: utc(req.to, 'to'),
    sessions: req.sessions,
    analyses: req.analyses,
    states: req.states,
  };
};
