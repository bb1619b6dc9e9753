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

/**
 * The k-th smallest of `values[0..count)` (k from 0), found by Hoare's selection ("Algorithm 65: Find",
 * CACM 4(7), 1961): partition around a middle pivot and keep only the side that holds position k. Reorders
 * the values in place; expected time proportional to `count`, against count·log(count) for a sort.
 */
export const kthSmallest = (values: Float64Array, count: number, k: number): number => {
  let low = 0;
  let high = count - 1;
  while (low < high) {
    const pivot = values[(low + high) >> 1]!;
    let i = low;
    let j = high;
    while (i <= j) {
      while (values[i]! < pivot) i++;
      while (values[j]! > pivot) j--;
      if (i <= j) {
        const swap = values[i]!;
        values[i] = values[j]!;
        values[j] = swap;
        i++;
        j--;
      }
    }
    if (k <= j) high = j;
    else if (k >= i) low = i;
    else return values[k]!;
  }
  return values[k]!;
};

/** The median of `values[0..count)` (the mean of the two middle values when count is even); reorders them. */
export const medianInPlace = (values: Float64Array, count: number): number => {
  const middle = count >> 1;
  const upper = kthSmallest(values, count, middle);
  if (count % 2 === 1) return upper;
  // After the selection every value before `middle` is at most the upper middle: the lower middle is their maximum.
  let lower = values[0]!;
  for (let i = 1; i < middle; i++) if (values[i]! > lower) lower = values[i]!;
  return 0.5 * (lower + upper);
};
