/** Small statistics over plain number arrays, as Praat's Pitch/Intensity queries compute them. */
export const mean = (v: readonly number[]): number | null =>
  v.length === 0 ? null : v.reduce((a, b) => a + b, 0) / v.length;

/** Sample standard deviation (n − 1). */
export const sd = (v: readonly number[]): number | null => {
  if (v.length < 2) return null;
  const m = mean(v)!;
  return Math.sqrt(v.reduce((a, b) => a + (b - m) ** 2, 0) / (v.length - 1));
};

/** Quantile with linear interpolation between order statistics (q = 0.5 is the usual median). */
export const quantile = (v: readonly number[], q: number): number | null => {
  if (v.length === 0) return null;
  const s = [...v].sort((a, b) => a - b);
  const place = q * (s.length - 1);
  const lo = Math.floor(place);
  const hi = Math.min(s.length - 1, lo + 1);
  return s[lo]! + (s[hi]! - s[lo]!) * (place - lo);
};
