/**
 * Smoothed cepstral peak prominence (CPPS), after Hillenbrand, Cleveland and Erickson (1994) and
 * Hillenbrand and Houde (1996): per frame, the power cepstrum of the log power spectrum; the cepstra are
 * smoothed across time and across quefrency; the prominence of a frame is the height of its cepstral
 * peak (in dB) above a trend line through the cepstrum; CPPS is the mean over frames. Praat's manual pages
 * name the steps ("Sound: To PowerCepstrogram...", "PowerCepstrogram: Smooth...", "PowerCepstrogram: Get
 * CPPS...") and Maryn and Weenink (2015, J. Voice 29) the settings. Where the descriptions are silent
 * (the analysis window, the frame's mean, the smoothing kernels, the trend line), the choice was measured
 * on Praat with signals built for the question: docs/acoustics.md, "CPPS".
 */
import { fft, nextPow2 } from './fft';
import { resampleSound } from './resample';
import { frameGrid, frameTime } from './frames';
import { medianInPlace } from './stats';

export interface CppsSettings {
  /** Sets the analysis window: three periods of this pitch, twice that long for the Gaussian. */
  readonly pitchFloor: number;
  readonly timeStep: number;
  readonly maxFrequency: number;
  readonly preEmphasisHz: number;
  readonly timeAveraging: number;
  readonly quefrencyAveraging: number;
  readonly peakSearchFloor: number;
  readonly peakSearchCeiling: number;
  /** Quefrency range of the trend line, seconds (an upper limit of 0: up to the last quefrency). */
  readonly trendFrom: number;
  readonly trendTo: number;
}

/** Maryn and Weenink (2015): To PowerCepstrogram 60, 0.002, 5000, 50; Get CPPS no, 0.01, 0.001, 60, 330, 0.05, Parabolic, 0.001, 0, Straight, Robust. */
export const CPPS_DEFAULTS: CppsSettings = {
  pitchFloor: 60,
  timeStep: 0.002,
  maxFrequency: 5000,
  preEmphasisHz: 50,
  timeAveraging: 0.01,
  quefrencyAveraging: 0.001,
  peakSearchFloor: 60,
  peakSearchCeiling: 330,
  trendFrom: 0.001,
  trendTo: 0,
};

/** A tiny power added before each logarithm, so that a silent bin has a finite log. */
const POWER_FLOOR = 1e-300;

/** Gaussian window of n samples, exp(−12·((j + 1)/(n + 1) − ½)²·4) less its edge value (measured: cepstrum-window.praat). */
const cepstralWindow = (n: number): Float64Array => {
  const edge = Math.exp(-12);
  return Float64Array.from({ length: n }, (_, j) => {
    const u = (j + 1) / (n + 1) - 0.5;
    return (Math.exp(-48 * u * u) - edge) / (1 - edge);
  });
};

/** The analysis: the sound at twice the maximum frequency, pre-emphasised, and its framing. */
interface Framing {
  readonly signal: Float64Array;
  readonly rate: number;
  readonly window: Float64Array;
  readonly size: number;
  readonly starts: number[];
}

const framing = (x: Float32Array, fs: number, s: CppsSettings): Framing => {
  const rate = 2 * s.maxFrequency;
  const signal = resampleSound(x, fs, rate);
  const alpha = Math.exp((-2 * Math.PI * s.preEmphasisHz) / rate);
  for (let i = signal.length - 1; i > 0; i--) signal[i] = signal[i]! - alpha * signal[i - 1]!;
  const physical = 2 * (3 / s.pitchFloor);
  const grid = frameGrid(signal.length, rate, physical, s.timeStep);
  const n = Math.round(physical * rate);
  const starts = Array.from(
    { length: grid.count },
    (_, i) => Math.round(frameTime(grid, i) * rate - 0.5) - (n >> 1),
  );
  return { signal, rate, window: cepstralWindow(n), size: nextPow2(n), starts };
};

/** Puts one frame, less its mean, under the window into `out` (zero beyond the frame); false when it is all one value (digital silence). */
const windowedFrame = (f: Framing, start: number, out: Float64Array): boolean => {
  const n = f.window.length;
  let mean = 0;
  for (let j = 0; j < n; j++) mean += f.signal[start + j] ?? 0;
  mean /= n;
  out.fill(0);
  let sounding = false;
  for (let j = 0; j < n; j++) {
    const centred = (f.signal[start + j] ?? 0) - mean;
    if (centred !== 0) sounding = true;
    out[j] = centred * f.window[j]!;
  }
  return sounding;
};

/**
 * The power cepstra of two frames at once: the two real frames share one complex transform, their log
 * power spectra (real and even) share one inverse transform, whose real and imaginary parts are then the
 * two cepstra. Writes the power cepstra, bins 0..size/2, into `first` and `second`.
 */
const twoPowerCepstra = (
  rate: number,
  re: Float64Array,
  im: Float64Array,
  first: Float64Array,
  second: Float64Array,
): void => {
  const size = re.length;
  fft(re, im);
  const logA = first;
  const logB = second;
  for (let k = 0; k <= size >> 1; k++) {
    const m = (size - k) & (size - 1);
    const aRe = 0.5 * (re[k]! + re[m]!);
    const aIm = 0.5 * (im[k]! - im[m]!);
    const bRe = 0.5 * (im[k]! + im[m]!);
    const bIm = 0.5 * (re[m]! - re[k]!);
    logA[k] = Math.log(aRe * aRe + aIm * aIm + POWER_FLOOR);
    logB[k] = Math.log(bRe * bRe + bIm * bIm + POWER_FLOOR);
  }
  for (let k = 0; k <= size >> 1; k++) {
    re[k] = logA[k]!;
    im[k] = logB[k]!;
    if (k > 0 && k < size >> 1) {
      re[size - k] = logA[k]!;
      im[size - k] = logB[k]!;
    }
  }
  fft(re, im, true);
  // The inverse transform as an integral over frequency (steps of rate/size): size · rate/size = rate.
  const scale = rate * rate;
  for (let q = 0; q <= size >> 1; q++) {
    first[q] = scale * re[q]! * re[q]!;
    second[q] = scale * im[q]! * im[q]!;
  }
};

/**
 * The power cepstra of a sound's frames, computed on demand two at a time; the last few are kept (the
 * array `frameAt` returns is written again once `keep` frames after it have been computed).
 */
export interface Cepstrogram {
  readonly count: number;
  /** Quefrency step is 1/rate; bins 0..size/2. */
  readonly rate: number;
  readonly frameAt: (index: number) => Float64Array;
  /** Whether frame `index` (computed already) is digital silence, which has no cepstrum. */
  readonly silentAt: (index: number) => boolean;
}

export const powerCepstrogram = (
  x: Float32Array,
  fs: number,
  s: CppsSettings = CPPS_DEFAULTS,
  keep = 16,
): Cepstrogram => {
  const f = framing(x, fs, s);
  const count = f.starts.length;
  const re = new Float64Array(f.size);
  const im = new Float64Array(f.size);
  const kept = new Map<number, Float64Array>();
  // The arrays of frames no longer kept, written again rather than allocated anew.
  const released: Float64Array[] = [];
  const bins = (f.size >> 1) + 1;
  const silent = new Uint8Array(count);
  const computePair = (even: number): void => {
    silent[even] = windowedFrame(f, f.starts[even]!, re) ? 0 : 1;
    if (even + 1 < count) silent[even + 1] = windowedFrame(f, f.starts[even + 1]!, im) ? 0 : 1;
    else im.fill(0);
    const first = released.pop() ?? new Float64Array(bins);
    const second = released.pop() ?? new Float64Array(bins);
    twoPowerCepstra(f.rate, re, im, first, second);
    kept.set(even, first);
    if (even + 1 < count) kept.set(even + 1, second);
    else released.push(second);
    for (const [index, cepstrum] of kept)
      if (index < even - keep) {
        kept.delete(index);
        released.push(cepstrum);
      }
  };
  const frameAt = (index: number): Float64Array => {
    if (!kept.has(index)) computePair(index - (index & 1));
    return kept.get(index)!;
  };
  return { count, rate: f.rate, frameAt, silentAt: (index) => silent[index] === 1 };
};

/**
 * Weights of a running mean `width` steps wide over a sequence read with linear interpolation between
 * its points: the k-th weight is the share of the triangle centred k steps away that falls under the
 * box (measured on Praat: time and quefrency averaging in "PowerCepstrogram: Smooth...").
 */
export const averagingWeights = (width: number): Float64Array => {
  if (width <= 0) return Float64Array.of(1);
  const half = width / 2;
  const reach = Math.ceil(half + 1) - 1;
  // The integral of the unit triangle from −∞ to t.
  const below = (t: number): number =>
    t <= -1 ? 0 : t >= 1 ? 1 : t <= 0 ? 0.5 * (1 + t) ** 2 : 1 - 0.5 * (1 - t) ** 2;
  return Float64Array.from({ length: 2 * reach + 1 }, (_, j) => {
    const k = j - reach;
    return (below(half - k) - below(-half - k)) / width;
  });
};

/** Writes into `out` the weighted mean of the frames around `index` (fewer at the ends, renormalised). */
const averageAcrossTime = (
  source: Cepstrogram,
  weights: Float64Array,
  index: number,
  out: Float64Array,
): void => {
  const reach = (weights.length - 1) >> 1;
  out.fill(0);
  let total = 0;
  for (let j = 0; j < weights.length; j++) {
    const frame = index - reach + j;
    if (frame < 0 || frame >= source.count) continue;
    const w = weights[j]!;
    const cepstrum = source.frameAt(frame);
    for (let q = 0; q < out.length; q++) out[q] = out[q]! + w * cepstrum[q]!;
    total += w;
  }
  for (let q = 0; q < out.length; q++) out[q] = out[q]! / total;
};

/**
 * Writes into `out` (in dB) the weighted mean of the bins around each bin; the cepstrum is even about
 * quefrency 0 and about the last bin, so it is read past them as mirrored.
 */
const averageAcrossQuefrencyDb = (cepstrum: Float64Array, weights: Float64Array, out: Float64Array): void => {
  const reach = (weights.length - 1) >> 1;
  const last = cepstrum.length - 1;
  const mirroredSum = (q: number): number => {
    let sum = 0;
    for (let j = 0, b = q - reach; j < weights.length; j++, b++) {
      const bin = b < 0 ? -b : b > last ? 2 * last - b : b;
      sum += weights[j]! * cepstrum[bin]!;
    }
    return sum;
  };
  for (let q = 0; q <= last; q++) {
    let sum = 0;
    if (q < reach || q > last - reach) sum = mirroredSum(q);
    else for (let j = 0, b = q - reach; j < weights.length; j++, b++) sum += weights[j]! * cepstrum[b]!;
    out[q] = 10 * Math.log10(sum + POWER_FLOOR);
  }
};

/**
 * Each frame of the cepstrogram averaged across time and then across quefrency (power, not dB, is
 * averaged), handed in dB to `visit` in order; the buffer is reused from frame to frame.
 */
export const forEachSmoothedFrameDb = (
  source: Cepstrogram,
  s: CppsSettings,
  visit: (cepstrumDb: Float64Array, index: number) => void,
): void => {
  const acrossTime = averagingWeights(s.timeAveraging / s.timeStep);
  const acrossQuefrency = averagingWeights(s.quefrencyAveraging * source.rate);
  if (source.count === 0) return;
  const bins = source.frameAt(0).length;
  const timeMean = new Float64Array(bins);
  const smoothed = new Float64Array(bins);
  for (let i = 0; i < source.count; i++) {
    averageAcrossTime(source, acrossTime, i, timeMean);
    averageAcrossQuefrencyDb(timeMean, acrossQuefrency, smoothed);
    visit(smoothed, i);
  }
};

/** The height (dB) and quefrency (bins) of the highest point in the search range, parabolically interpolated. */
const cepstralPeak = (
  cepstrum: Float64Array,
  first: number,
  last: number,
): { height: number; bin: number } => {
  let peak = first;
  for (let q = first + 1; q <= last; q++) if (cepstrum[q]! > cepstrum[peak]!) peak = q;
  const before = cepstrum[peak - 1]!;
  const at = cepstrum[peak]!;
  const after = cepstrum[peak + 1]!;
  const curvature = before - 2 * at + after;
  // Only a local maximum is interpolated (its vertex is then within half a bin); a highest point at the
  // edge of the search range, on a slope, is taken as it is.
  const isLocalMaximum = at >= before && at >= after && curvature < 0;
  const offset = isLocalMaximum ? (0.5 * (before - after)) / curvature : 0;
  return { height: at - 0.25 * (before - after) * offset, bin: peak + offset };
};

/** Room for the slopes and residuals of the trend line, grown when a longer cepstrum comes. */
let trendScratch = new Float64Array(0);

/**
 * The trend line's level (dB) at quefrency bin `at`: Theil's robust straight line through the dB values
 * of bins `from`..`to` (Theil 1950; the slope the median of the slopes between each point of the first
 * half and its partner in the second half, the intercept the median residual). Reproduces Praat's
 * "Straight", "Robust" (docs/acoustics.md, "CPPS").
 */
export const robustTrendAt = (cepstrum: Float64Array, from: number, to: number, at: number): number => {
  const count = to - from + 1;
  const half = count >> 1;
  if (trendScratch.length < count) trendScratch = new Float64Array(count);
  const values = trendScratch;
  for (let i = 0; i < half; i++) {
    const j = i + count - half;
    values[i] = (cepstrum[from + j]! - cepstrum[from + i]!) / (j - i);
  }
  const slope = medianInPlace(values, half);
  for (let i = 0; i < count; i++) values[i] = cepstrum[from + i]! - slope * (from + i);
  return medianInPlace(values, count) + slope * at;
};

/** One smoothed cepstrum's peak (searched between 60 and 330 Hz by default): its quefrency and prominence (dB) above the trend line. */
export const peakProminence = (
  cepstrum: Float64Array,
  rate: number,
  s: CppsSettings = CPPS_DEFAULTS,
): { quefrency: number; prominenceDb: number } => {
  const lastBin = cepstrum.length - 1;
  const first = Math.max(1, Math.ceil(rate / s.peakSearchCeiling));
  const last = Math.min(lastBin - 1, Math.floor(rate / s.peakSearchFloor));
  const peak = cepstralPeak(cepstrum, first, last);
  const trendFirst = Math.max(1, Math.round(s.trendFrom * rate));
  const trendLast = s.trendTo > 0 ? Math.min(lastBin, Math.round(s.trendTo * rate)) : lastBin;
  return {
    quefrency: peak.bin / rate,
    prominenceDb: peak.height - robustTrendAt(cepstrum, trendFirst, trendLast, peak.bin),
  };
};

/**
 * CPPS in dB of a mono signal: the mean prominence over its frames, frames of digital silence left out;
 * null when it is too short for one analysis frame or silent throughout.
 */
export const cpps = (x: Float32Array, fs: number, s: CppsSettings = CPPS_DEFAULTS): number | null => {
  const source = powerCepstrogram(x, fs, s);
  let sum = 0;
  let sounding = 0;
  forEachSmoothedFrameDb(source, s, (cepstrum, index) => {
    // A frame of digital silence has a flat cepstrum and counts with prominence 0, as in Praat.
    if (source.silentAt(index)) return;
    sum += peakProminence(cepstrum, source.rate, s).prominenceDb;
    sounding++;
  });
  return sounding > 0 ? sum / source.count : null;
};
