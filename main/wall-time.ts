/**
 * A wall-clock date and time (as written in a manifest, a file name or a file's tags, with no zone of
 * its own) and the instant it names in an IANA time zone.
 */

const daysInMonth = (y: number, m: number): number => new Date(Date.UTC(y, m, 0)).getUTCDate();

export interface WallTime {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

/** True when every field is in range (month 1–12, a real day of that month, 00:00:00–23:59:59). */
export function isValidWallTime(w: WallTime): boolean {
  return (
    w.year >= 1 &&
    w.year <= 9999 &&
    w.month >= 1 &&
    w.month <= 12 &&
    w.day >= 1 &&
    w.day <= daysInMonth(w.year, w.month) &&
    w.hour >= 0 &&
    w.hour <= 23 &&
    w.minute >= 0 &&
    w.minute <= 59 &&
    w.second >= 0 &&
    w.second <= 59
  );
}

/** The wall time read as if it were UTC, in milliseconds (years below 100 kept as written). */
export const wallAsUtc = (w: WallTime): number => {
  const d = new Date(0);
  d.setUTCFullYear(w.year, w.month - 1, w.day);
  d.setUTCHours(w.hour, w.minute, w.second, 0);
  return d.getTime();
};

const formatters = new Map<string, Intl.DateTimeFormat>();
/** Offset of `timeZone` from UTC at the instant `ms`, in milliseconds (whole seconds: Intl formats no fractions). */
export const zoneOffset = (ms: number, timeZone: string): number => {
  let f = formatters.get(timeZone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      era: 'short',
    });
    formatters.set(timeZone, f);
  }
  const p: Record<string, number> = {};
  let beforeCommonEra = false;
  for (const part of f.formatToParts(ms)) {
    if (part.type === 'era') beforeCommonEra = part.value === 'BC' || part.value === 'B';
    else if (part.type !== 'literal') p[part.type] = Number(part.value);
  }
  const w = {
    year: beforeCommonEra ? 1 - p['year']! : p['year']!,
    month: p['month']!,
    day: p['day']!,
    hour: p['hour']!,
    minute: p['minute']!,
    second: p['second']!,
  };
  // Date.UTC reads years 0-99 as 1900-1999; wallAsUtc keeps them (slower: it builds a Date).
  const wall =
    w.year >= 100 ? Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) : wallAsUtc(w);
  return wall - (ms - (((ms % 1000) + 1000) % 1000));
};

/**
 * The UTC instant of a wall-clock time in an IANA zone, or null when that local time does not exist
 * (skipped by a daylight-saving change). A time that occurs twice gives the earlier instant.
 */
export function zonedWallTimeToUtc(w: WallTime, timeZone: string): number | null {
  const asUtc = wallAsUtc(w);
  const day = 86_400_000;
  const candidates = [
    ...new Set([
      zoneOffset(asUtc - day, timeZone),
      zoneOffset(asUtc, timeZone),
      zoneOffset(asUtc + day, timeZone),
    ]),
  ]
    .map((offset) => asUtc - offset)
    .filter((t) => t + zoneOffset(t, timeZone) === asUtc)
    .sort((a, b) => a - b);
  return candidates[0] ?? null;
}
