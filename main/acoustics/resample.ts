/**
 * Resampling as Praat's "Sound: Resample..." does it at its default precision, measured on the program
 * (docs/acoustics.md, "CPPS", resampling; experiments `resample-kernel.praat`, `cpps-resampling.praat`):
 * the taper, the sample range and the low-pass filter were read off impulses resampled by Praat. Windowed-sinc
 * reconstruction as in Oppenheim & Schafer, *Discrete-Time Signal Processing*, 4.6, and J. O. Smith,
 * "Digital Audio Resampling".
 */
import { fft, nextPow2 } from './fft';

/** Praat's default precision: input samples on each side of an output sample. */
export const RESAMPLE_DEPTH = 50;

/**
 * Removes every component above `cutoffHz` with one transform of the whole sound (zero-padded to a power
 * of two): a brick-wall low-pass, as measured on Praat before it lowers the rate.
 */
export const brickWallLowPass = (x: Float32Array, rate: number, cutoffHz: number): Float64Array => {
  const size = nextPow2(Math.max(1, x.length));
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  re.set(x);
  fft(re, im);
  const firstRemoved = Math.ceil((cutoffHz / rate) * size);
  for (let k = firstRemoved; k <= size - firstRemoved; k++) {
    re[k] = 0;
    im[k] = 0;
  }
  fft(re, im, true);
  return re.subarray(0, x.length);
};

/**
 * The weight of the input sample `distance` samples before the output point (negative: after it). The
 * sinc is tapered by a raised cosine on each side that reaches zero at the first input sample outside
 * the 2·depth used, so its half-length on the left is depth + phase and on the right depth + 1 − phase
 * (measured: `resample-kernel.praat`, to 10⁻¹² on an impulse).
 */
const sincWeight = (distance: number, phase: number, depth: number): number => {
  if (distance === 0) return 1;
  const halfLength = distance > 0 ? depth + phase : depth + 1 - phase;
  const arg = Math.PI * distance;
  return (Math.sin(arg) / arg) * (0.5 + 0.5 * Math.cos(arg / halfLength));
};

/** The number of outputs after which the interpolation phases repeat (1 when they do not within 1,000). */
export const phasePeriod = (fromRate: number, toRate: number): number => {
  if (!Number.isInteger(fromRate) || !Number.isInteger(toRate)) return 1;
  let a = fromRate;
  let b = toRate;
  while (b > 0) [a, b] = [b, a % b];
  const period = toRate / a;
  return period <= 1000 ? period : 1;
};

/**
 * The sound at `toRate`: same duration, round(duration · toRate) samples centred in it; low-passed at the
 * new Nyquist frequency first when the rate falls; each output the windowed-sinc interpolation of the
 * `depth` input samples on each side.
 */
export const resampleSound = (
  x: Float32Array,
  fromRate: number,
  toRate: number,
  depth = RESAMPLE_DEPTH,
): Float64Array => {
  if (fromRate === toRate) return Float64Array.from(x);
  const source = toRate < fromRate ? brickWallLowPass(x, fromRate, toRate / 2) : Float64Array.from(x);
  const duration = x.length / fromRate;
  const count = Math.round(duration * toRate);
  const firstTime = 0.5 * (duration - (count - 1) / toRate);
  const out = new Float64Array(count);
  const period = phasePeriod(fromRate, toRate);
  const taps = 2 * depth;
  const weights = new Float64Array(taps);
  const positionOf = (j: number): number => (firstTime + j / toRate) * fromRate - 0.5;
  for (let p = 0; p < period; p++) {
    const first = positionOf(p);
    const centre = Math.floor(first);
    const phase = first - centre;
    for (let t = 0; t < taps; t++) weights[t] = sincWeight(phase + depth - 1 - t, phase, depth);
    for (let j = p; j < count; j += period) {
      const position = positionOf(j);
      const nearest = Math.floor(position);
      const exact = period > 1 && Math.abs(position - nearest - phase) < 1e-9;
      const low = nearest - depth + 1;
      let sum = 0;
      for (let t = Math.max(0, -low); t < taps && low + t < source.length; t++) {
        const w = exact ? weights[t]! : sincWeight(position - (low + t), position - nearest, depth);
        sum += w * source[low + t]!;
      }
      out[j] = sum;
    }
  }
  return out;
};
