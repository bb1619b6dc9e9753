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
    sumPeriod += p;
    nPeriod++;
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
 * Amplitude of one period: the signal's highest value between two pulse times. (Of the readings tried
 * against Praat on vowels with set shimmer, peak-to-peak, absolute peak, RMS and positive peak, the
 * positive peak is the one that agrees; see docs/acoustics.md.)
 */
const periodAmplitude = (x: Float32Array, fs: number, a: number, b: number): number => {
  const k0 = Math.max(0, Math.ceil(a * fs - 0.5));
  const k1 = Math.min(x.length - 1, Math.floor(b * fs - 0.5));
  let hi = -Infinity;
  for (let k = k0; k <= k1; k++) if (x[k]! > hi) hi = x[k]!;
  return hi > 0 ? hi : 0;
};

export interface Shimmer {
  /** Fraction (multiply by 100 for %). */
  readonly local: number | null;
  readonly localDb: number | null;
}

export const shimmerLocal = (
  x: Float32Array,
  fs: number,
  points: Float64Array,
  s = PERTURBATION_DEFAULTS,
): Shimmer => {
  let sumDiff = 0;
  let sumDb = 0;
  let nDiff = 0;
  let sumAmp = 0;
  let nAmp = 0;
  let prevAmp: number | null = null;
  let prevPeriod: number | null = null;
  for (let i = 1; i < points.length; i++) {
    const p = points[i]! - points[i - 1]!;
    if (!validPeriod(p, s)) {
      prevAmp = null;
      prevPeriod = null;
      continue;
    }
    const amp = periodAmplitude(x, fs, points[i - 1]!, points[i]!);
    if (amp <= 0) {
      prevAmp = null;
      continue;
    }
    sumAmp += amp;
    nAmp++;
    if (
      prevAmp !== null &&
      prevPeriod !== null &&
      Math.max(p, prevPeriod) / Math.min(p, prevPeriod) <= s.maxPeriodFactor &&
      Math.max(amp, prevAmp) / Math.min(amp, prevAmp) <= s.maxAmplitudeFactor
    ) {
      sumDiff += Math.abs(amp - prevAmp);
      sumDb += Math.abs(20 * Math.log10(amp / prevAmp));
      nDiff++;
    }
    prevAmp = amp;
    prevPeriod = p;
  }
  if (nDiff === 0 || nAmp === 0) return { local: null, localDb: null };
  return { local: sumDiff / nDiff / (sumAmp / nAmp), localDb: sumDb / nDiff };
};
