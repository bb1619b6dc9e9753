/** How numbers, times and sizes read on screen: the researcher's locale for display, never for data. */
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const num = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });
const int = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });

export const fmtDateTime = (iso: string | null | undefined) => (iso ? dateTime.format(new Date(iso)) : '—');
export const fmtDate = (iso: string | null | undefined) => (iso ? dateOnly.format(new Date(iso)) : '—');
export const fmtNumber = (n: number | null | undefined, digits?: number) =>
  n === null || n === undefined || Number.isNaN(n)
    ? '—'
    : digits === undefined
      ? num.format(n)
      : n.toFixed(digits);
export const fmtInt = (n: number | null | undefined) => (n === null || n === undefined ? '—' : int.format(n));
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
export const plural = (n: number, one: string, many = `${one}s`) =>
  `${int.format(n)} ${n === 1 ? one : many}`;
/** Signed, for changes: "+3.2", "−1.0". */
export const fmtSigned = (n: number | null | undefined, digits = 1) =>
  n === null || n === undefined ? '—' : `${n > 0 ? '+' : n < 0 ? '−' : '±'}${Math.abs(n).toFixed(digits)}`;
