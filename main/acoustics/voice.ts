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

export interface Shimmer {
  /** Fraction (multiply by 100 for %). */
  readonly local: number | null;
  readonly localDb: number | null;
}

/** How far the window that reads a pulse's amplitude reaches, as a share of the period on that side. */
const AMPLITUDE_REACH = 0.2;

/**
 * The amplitude at a pulse: the root mean square of the signal under a window that rises as a half Hann
 * from `AMPLITUDE_REACH` of the period before the pulse to the pulse and falls as a half Hann to that
 * share of the period after it, normalised by the window's own mean square, so that a steady tone reads
 * its RMS. Measured on Praat's "To AmplitudeTier (period)", the amplitudes its shimmer uses
 * (scripts/validation/experiments/amplitude-window.praat: a lone click read at offsets from the pulse
 * traces the window, its reach on each side and its normalisation). Samples lie at (k + 0.5) / fs;
 * null when no sample, or only silence, is under the window.
 */
export const amplitudeAtPulse = (
  x: Float32Array,
  fs: number,
  pulse: number,
  periodBefore: number,
  periodAfter: number,
): number | null => {
  const reachBefore = AMPLITUDE_REACH * periodBefore;
  const reachAfter = AMPLITUDE_REACH * periodAfter;
  const first = Math.max(0, Math.ceil((pulse - reachBefore) * fs - 0.5));
  const last = Math.min(x.length - 1, Math.floor((pulse + reachAfter) * fs - 0.5));
  let weightedEnergy = 0;
  let windowEnergy = 0;
  for (let k = first; k <= last; k++) {
    const offset = (k + 0.5) / fs - pulse;
    const reach = offset < 0 ? reachBefore : reachAfter;
    const weight = 0.5 + 0.5 * Math.cos((Math.PI * offset) / reach);
    const w2 = weight * weight;
    weightedEnergy += w2 * x[k]! * x[k]!;
    windowEnergy += w2;
  }
  if (windowEnergy === 0 || weightedEnergy === 0) return null;
  return Math.sqrt(weightedEnergy / windowEnergy);
};

/** A pulse with the amplitude read there. */
interface PulseAmplitude {
  readonly time: number;
  readonly amplitude: number;
}

/**
 * The pulses that get an amplitude: those with a period on both sides (each a valid period, the two
 * within the maximum period factor of each other); measured with shimmer-rules.praat, where the pulses
 * next to a 30 ms gap (longer than the longest period) get none.
 */
const pulseAmplitudes = (
  x: Float32Array,
  fs: number,
  points: Float64Array,
  s: PerturbationSettings,
): PulseAmplitude[] => {
  const found: PulseAmplitude[] = [];
  for (let i = 1; i + 1 < points.length; i++) {
    const before = points[i]! - points[i - 1]!;
    const after = points[i + 1]! - points[i]!;
    if (!validPeriod(before, s) || !validPeriod(after, s)) continue;
    if (Math.max(before, after) / Math.min(before, after) > s.maxPeriodFactor) continue;
    const amplitude = amplitudeAtPulse(x, fs, points[i]!, before, after);
    if (amplitude !== null) found.push({ time: points[i]!, amplitude });
  }
  return found;
};

/**
 * Shimmer (local) and (local, dB) from the amplitudes at the pulses ("Voice 3. Shimmer"). Rules the
 * manual leaves open, measured with shimmer-rules.praat (docs/acoustics.md): two consecutive amplitudes
 * are compared only when their pulses are no more than the longest period apart and their ratio is
 * within the maximum amplitude factor; the mean amplitude is taken over every amplitude but the last.
 */
export const shimmerLocal = (
  x: Float32Array,
  fs: number,
  points: Float64Array,
  s = PERTURBATION_DEFAULTS,
): Shimmer => {
  const pulses = pulseAmplitudes(x, fs, points, s);
  let differenceSum = 0;
  let decibelSum = 0;
  let pairs = 0;
  for (let i = 1; i < pulses.length; i++) {
    const earlier = pulses[i - 1]!;
    const later = pulses[i]!;
    if (later.time - earlier.time > s.periodCeiling) continue;
    const ratio = later.amplitude / earlier.amplitude;
    if (Math.max(ratio, 1 / ratio) > s.maxAmplitudeFactor) continue;
    differenceSum += Math.abs(later.amplitude - earlier.amplitude);
    decibelSum += Math.abs(20 * Math.log10(ratio));
    pairs++;
  }
  if (pairs === 0) return { local: null, localDb: null };
  let amplitudeSum = 0;
  for (let i = 0; i + 1 < pulses.length; i++) amplitudeSum += pulses[i]!.amplitude;
  const meanAmplitude = amplitudeSum / (pulses.length - 1);
  return { local: differenceSum / pairs / meanAmplitude, localDb: decibelSum / pairs };
};
