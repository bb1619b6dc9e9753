/**
 * Jitter and shimmer from glottal pulses, as Praat's manual defines them ("Voice 2. Jitter",
 * "Voice 3. Shimmer"): jitter (local) is the mean absolute difference between consecutive periods over
 * the mean period; shimmer (local) the mean absolute difference between the amplitudes of consecutive
 * periods over the mean amplitude, and shimmer (local, dB) the mean of |20·log10(A(i+1)/A(i))|.
 * Periods shorter than `periodFloor` or longer than `periodCeiling` are not periods (they span
 * unvoiced stretches); a pair of consecutive periods whose ratio exceeds `maxPeriodFactor`, or of
 * amplitudes whose ratio exceeds `maxAmplitudeFactor`, is not compared.
 */
export interface PerturbationSettings {
  readonly periodFloor: number;
  readonly periodCeiling: number;
  readonly maxPeriodFactor: number;
  readonly maxAmplitudeFactor: number;
}

export const PERTURBATION_DEFAULTS: PerturbationSettings = {
  periodFloor: 0.0001,
  periodCeiling: 0.02,
  maxPeriodFactor: 1.3,
  maxAmplitudeFactor: 1.6,
};

const validPeriod = (p: number, s: PerturbationSettings): boolean =>
  p >= s.periodFloor && p <= s.periodCeiling;

/** Jitter (local) as a fraction (multiply by 100 for %); null with fewer than two comparable periods. */
export const jitterLocal = (points: Float64Array, s = PERTURBATION_DEFAULTS): number | null => {
  let sumDiff = 0;
  let nDiff = 0;
  let sumPeriod = 0;
  let nPeriod = 0;
  for (let i = 1; i < points.length; i++) {
    const p = points[i]! - points[i - 1]!;
    if (!validPeriod(p, s)) continue;
    // The mean period leaves out a period that differs by more than the factor from both its neighbours.
    const before = i >= 2 ? p / (points[i - 1]! - points[i - 2]!) : NaN;
    const after = i + 1 < points.length ? p / (points[i + 1]! - points[i]!) : NaN;
    const far = (r: number): boolean => r > 0 && Math.max(r, 1 / r) > s.maxPeriodFactor;
    if (!(far(before) && far(after))) {
      sumPeriod += p;
      nPeriod++;
    }
    if (i >= 2) {
      const q = points[i - 1]! - points[i - 2]!;
      if (validPeriod(q, s) && Math.max(p, q) / Math.min(p, q) <= s.maxPeriodFactor) {
        sumDiff += Math.abs(p - q);
        nDiff++;
      }
    }
  }
  if (nDiff === 0 || nPeriod === 0) return null;
  return sumDiff / nDiff / (sumPeriod / nPeriod);
};

/**
 * The amplitude at one pulse: the root mean square of the signal under a Hann window that reaches 0.2 of
 * the period before the pulse to the left and 0.2 of the period after it to the right, normalised by the
 * window's own mean square (Praat's AmplitudeTier (period) reading, which its shimmer measures use;
 * measured to reproduce Praat's shimmer exactly from the same pulses, see docs/acoustics.md). Samples
 * lie at (k + 0.5) / fs; null with fewer than three samples under the window.
 */
const pulseAmplitude = (
  x: Float32Array,
  fs: number,
  t: number,
  left: number,
  right: number,
): number | null => {
  const k0 = Math.max(0, Math.ceil((t - left) * fs - 0.5));
  const k1 = Math.min(x.length - 1, Math.floor((t + right) * fs - 0.5));
  if (k1 - k0 + 1 < 3) return null;
  let sum = 0;
  let wsum = 0;
  for (let k = k0; k <= k1; k++) {
    const tk = (k + 0.5) / fs;
    const w = 0.5 + 0.5 * Math.cos((Math.PI * (tk - t)) / (tk < t ? left : right));
    const v = x[k]! * w;
    sum += v * v;
    wsum += w * w;
  }
  return wsum > 0 ? Math.sqrt(sum / wsum) : null;
};

export interface Shimmer {
  /** Fraction (multiply by 100 for %). */
  readonly local: number | null;
  readonly localDb: number | null;
}

/**
 * One amplitude per pulse whose two neighbouring periods are both periods and within the maximum period
 * factor of each other; consecutive amplitudes (no more than the longest period apart) are compared when
 * within the maximum amplitude factor. Shimmer (local) divides their mean absolute difference by the
 * mean amplitude (every amplitude but the last, as Praat's definition does).
 */
export const shimmerLocal = (
  x: Float32Array,
  fs: number,
  points: Float64Array,
  s = PERTURBATION_DEFAULTS,
): Shimmer => {
  const times: number[] = [];
  const amps: number[] = [];
  for (let i = 1; i + 1 < points.length; i++) {
    const p1 = points[i]! - points[i - 1]!;
    const p2 = points[i + 1]! - points[i]!;
    if (!validPeriod(p1, s) || !validPeriod(p2, s) || Math.max(p1, p2) / Math.min(p1, p2) > s.maxPeriodFactor)
      continue;
    const a = pulseAmplitude(x, fs, points[i]!, 0.2 * p1, 0.2 * p2);
    if (a === null || !(a > 0)) continue;
    times.push(points[i]!);
    amps.push(a);
  }
  let sumDiff = 0;
  let sumDb = 0;
  let nDiff = 0;
  for (let i = 1; i < amps.length; i++) {
    if (!validPeriod(times[i]! - times[i - 1]!, s)) continue;
    const a1 = amps[i - 1]!;
    const a2 = amps[i]!;
    if (Math.max(a1, a2) / Math.min(a1, a2) > s.maxAmplitudeFactor) continue;
    sumDiff += Math.abs(a1 - a2);
    sumDb += Math.abs(20 * Math.log10(a1 / a2));
    nDiff++;
  }
  if (nDiff === 0) return { local: null, localDb: null };
  let sumAmp = 0;
  for (let i = 0; i + 1 < amps.length; i++) sumAmp += amps[i]!;
  const meanAmp = sumAmp / (amps.length - 1);
  if (!(meanAmp > 0)) return { local: null, localDb: null };
  return { local: sumDiff / nDiff / meanAmp, localDb: sumDb / nDiff };
};
