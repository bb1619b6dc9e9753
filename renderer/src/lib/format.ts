/**
 * How numbers, times and sizes read on screen: the researcher's locale for display, never for data.
 *
 * Dates, the one setting for all of them: in tables and figures ISO 8601 in the computer's time zone
 * (`2026-01-06`, `2026-01-06 09:30`), the same in every country ("1/6/25" is 1 June in most of the
 * world and 6 January in the US); in sentences and headings the researcher's locale, with the month
 * in words ("6 Jan 2026, 09:30"), which cannot be misread either.
 */
export const DATE_DISPLAY = {
  /** Tables, figures, lists. */
  short: 'iso-8601',
  /** Sentences and headings: the browser's locale (undefined), month in words. */
  long: { locale: undefined, options: { dateStyle: 'medium', timeStyle: 'short' } },
} as const;

/**
 * Each formatter is made on first use, not when the window's scripts load: the first Intl formatter
 * loads the locale's data, about 100 ms on a busy machine, before the first screen could draw.
 */
const once = <T>(make: () => T): (() => T) => {
  let made: T | undefined;
  return () => (made ??= make());
};
const longDateTime = once(() => new Intl.DateTimeFormat(DATE_DISPLAY.long.locale, DATE_DISPLAY.long.options));
const longDate = once(
  () => new Intl.DateTimeFormat(DATE_DISPLAY.long.locale, { dateStyle: DATE_DISPLAY.long.options.dateStyle }),
);
const num = once(() => new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 }));
const int = once(() => new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 }));

const pad = (n: number) => String(n).padStart(2, '0');
const isoDay = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
const valid = (iso: string | null | undefined): Date | null => {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
};

/** `2026-01-06 09:30`, local time: for tables and figures. */
export const fmtDateTime = (iso: string | null | undefined) => {
  const d = valid(iso);
  return d ? `${isoDay(d)} ${pad(d.getHours())}:${pad(d.getMinutes())}` : '—';
};
/** `2026-01-06`, local date: for tables and figures. */
export const fmtDate = (iso: string | null | undefined) => {
  const d = valid(iso);
  return d ? isoDay(d) : '—';
};
/** The researcher's locale with the month in words ("6 Jan 2026, 09:30"): for sentences and headings. */
export const fmtLongDateTime = (iso: string | null | undefined) => {
  const d = valid(iso);
  return d ? longDateTime().format(d) : '—';
};
export const fmtLongDate = (iso: string | null | undefined) => {
  const d = valid(iso);
  return d ? longDate().format(d) : '—';
};
export const fmtNumber = (n: number | null | undefined, digits?: number) =>
  n === null || n === undefined || Number.isNaN(n)
    ? '—'
    : digits === undefined
      ? num().format(n)
      : n.toFixed(digits);
export const fmtInt = (n: number | null | undefined) =>
  n === null || n === undefined ? '—' : int().format(n);
export const fmtSeconds = (s: number | null | undefined) =>
  s === null || s === undefined
    ? '—'
    : s >= 90
      ? `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`
      : `${s.toFixed(1)} s`;
export const fmtBytes = (b: number | null | undefined) => {
  if (b === null || b === undefined) return '—';
  if (b < 1024) return `${b} B`;
  if (b < 1024 ** 2) return `${(b / 1024).toFixed(1)} KB`;
  if (b < 1024 ** 3) return `${(b / 1024 ** 2).toFixed(1)} MB`;
  return `${(b / 1024 ** 3).toFixed(2)} GB`;
};
/** Every count in words goes through here: "1 file", "3 files". */
export const plural = (n: number, one: string, many = `${one}s`) =>
  `${int().format(n)} ${n === 1 ? one : many}`;
/** The verb that agrees with a count: agree(1, 'needs', 'need'). */
export const agree = (n: number, one: string, many: string) => (n === 1 ? one : many);
/**
 * A count after "the", where one needs no number: "the file", "the 3 files"; with `first`, "the first
 * session", "the first 3 sessions".
 */
export const theCount = (n: number, one: string, o: { many?: string; first?: boolean } = {}) =>
  `the ${o.first ? 'first ' : ''}${n === 1 ? one : plural(n, one, o.many)}`;
/** Signed, for changes: "+3.2", "−1.0". */
export const fmtSigned = (n: number | null | undefined, digits = 1) =>
  n === null || n === undefined ? '—' : `${n > 0 ? '+' : n < 0 ? '−' : '±'}${Math.abs(n).toFixed(digits)}`;
