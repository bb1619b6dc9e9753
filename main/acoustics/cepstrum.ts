/**
 * Smoothed cepstral peak prominence (CPPS), after Hillenbrand, Cleveland and Erickson (1994) and
 * Hillenbrand and Houde (1996): per frame, the power cepstrum of the log power spectrum; the cepstra are
 * smoothed across time and across quefrency; the prominence of a frame is the height of its cepstral
 * peak (in dB) above a regression line through the cepstrum at the peak's quefrency; CPPS is the mean
 * over frames. Praat's manual pages give the steps as Praat takes them ("Sound: To PowerCepstrogram...",
 * "Spectrum: To PowerCepstrum", "PowerCepstrogram: Smooth...", "PowerCepstrogram: Get CPPS...") and
 * Maryn and Weenink (2015, "Objective dysphonia measures in the program Praat: smoothed cepstral peak
 * prominence and acoustic voice quality index", J. Voice 29) the settings. The regression line is
 * Theil's robust fit (Theil 1950: the median of the slopes between the points of the first half and their
 * partners in the second half; intercept the median residual). Choices the manual leaves open, measured
 * on Praat, are in docs/acoustics.md ("CPPS").
 */
import { fft, nextPow2 } from './fft';
import { resample } from './formants';
import { frameGrid, frameTime, gaussianWindow } from './frames';

export interface CppsSettings {
  /** Sets the analysis window: three periods of this pitch (Praat: "pitch floor"). */
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

/** Maryn and Weenink (2015): To PowerCepstrogram 60, 0.002, 5000, 50; Get CPPS no, 0.01, 0.001, 60, 330, 0.05, Parabolic, 0.001, 0, …, Robust. */
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

/** A tiny power added before the logarithm, so that a silent bin has a finite log. */
const POWER_FLOOR = 1e-30;

/** The power cepstrum (in dB) of one windowed frame, for quefrency bins 0..size/2. */
const powerCepstrumDb = (
  frame: Float64Array,
  size: number,
  re: Float64Array,
  im: Float64Array,
): Float64Array => {
  re.fill(0);
  im.fill(0);
  re.set(frame);
  fft(re, im);
  for (let k = 0; k < size; k++) {
    re[k] = Math.log(re[k]! * re[k]! + im[k]! * im[k]! + POWER_FLOOR);
    im[k] = 0;
  }
  fft(re, im, true);
  const half = size >> 1;
  const db = new Float64Array(half + 1);
  for (let q = 0; q <= half; q++) db[q] = 10 * Math.log10(re[q]! * re[q]! + im[q]! * im[q]! + POWER_FLOOR);
  return db;
};

/** The cepstrogram of a signal: one power cepstrum (dB) per frame, at the analysis rate. */
const powerCepstrogram = (
  x: Float32Array,
  fs: number,
  s: CppsSettings,
): { frames: Float64Array[]; rate: number } => {
  const rate = 2 * s.maxFrequency;
  const y = resample(x, fs, rate);
  const alpha = Math.exp((-2 * Math.PI * s.preEmphasisHz) / rate);
  for (let i = y.length - 1; i > 0; i--) y[i] = y[i]! - alpha * y[i - 1]!;
  const physical = 2 * (3 / s.pitchFloor);
  const grid = frameGrid(y.length, rate, physical, s.timeStep);
  const n = Math.round(physical * rate);
  const window = gaussianWindow(n);
  const size = nextPow2(n);
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  const frame = new Float64Array(n);
  const frames: Float64Array[] = [];
  for (let i = 0; i < grid.count; i++) {
    const start = Math.round(frameTime(grid, i) * rate - 0.5) - Math.floor(n / 2) + 1;
    for (let j = 0; j < n; j++) {
      const k = start + j;
      frame[j] = k >= 0 && k < y.length ? y[k]! * window[j]! : 0;
    }
    frames.push(powerCepstrumDb(frame, size, re, im));
  }
  return { frames, rate };
};

/** An averaging width in bins: the window over the step, made odd; 1 (none) when that is 1 or less. */
const oddCount = (window: number, step: number): number => {
  const count = Math.round(window / step);
  if (count <= 1) return 1;
  return count % 2 === 0 ? count + 1 : count;
};

/** Each frame the mean of the `count` frames centred on it (fewer at the ends). */
const averageAcrossTime = (frames: Float64Array[], count: number): Float64Array[] => {
  if (count <= 1) return frames;
  const reach = (count - 1) / 2;
  return frames.map((_, i) => {
    const first = Math.max(0, i - reach);
    const last = Math.min(frames.length - 1, i + reach);
    const mean = new Float64Array(frames[i]!.length);
    for (let j = first; j <= last; j++) {
      const frame = frames[j]!;
      for (let q = 0; q < mean.length; q++) mean[q] = mean[q]! + frame[q]!;
    }
    for (let q = 0; q < mean.length; q++) mean[q] = mean[q]! / (last - first + 1);
    return mean;
  });
};

/** Each bin the mean of the `count` bins centred on it (fewer at the ends). */
const averageAcrossQuefrency = (cepstrum: Float64Array, count: number): Float64Array => {
  if (count <= 1) return cepstrum;
  const reach = (count - 1) / 2;
  return cepstrum.map((_, q) => {
    const first = Math.max(0, q - reach);
    const last = Math.min(cepstrum.length - 1, q + reach);
    let sum = 0;
    for (let k = first; k <= last; k++) sum += cepstrum[k]!;
    return sum / (last - first + 1);
  });
};

const median = (v: number[]): number => {
  v.sort((a, b) => a - b);
  const m = v.length >> 1;
  return v.length % 2 ? v[m]! : 0.5 * (v[m - 1]! + v[m]!);
};

/** Theil's robust straight line through (x, y): slope and intercept. */
export const theilLine = (
  x: ArrayLike<number>,
  y: ArrayLike<number>,
): { slope: number; intercept: number } => {
  const n = x.length;
  const half = n >> 1;
  const slopes: number[] = [];
  for (let i = 0; i < half; i++) {
    const j = i + n - half;
    if (x[j]! !== x[i]!) slopes.push((y[j]! - y[i]!) / (x[j]! - x[i]!));
  }
  const slope = slopes.length > 0 ? median(slopes) : 0;
  const residuals = Array.from({ length: n }, (_, i) => y[i]! - slope * x[i]!);
  return { slope, intercept: median(residuals) };
};

/** The prominence (dB) of one smoothed cepstrum's peak above its trend line. */
const peakProminence = (cepstrum: Float64Array, rate: number, s: CppsSettings): number => {
  const lastBin = cepstrum.length - 1;
  const firstPeakBin = Math.max(1, Math.ceil(rate / s.peakSearchCeiling));
  const lastPeakBin = Math.min(lastBin - 1, Math.floor(rate / s.peakSearchFloor));
  let peak = firstPeakBin;
  for (let q = firstPeakBin + 1; q <= lastPeakBin; q++) if (cepstrum[q]! > cepstrum[peak]!) peak = q;
  const before = cepstrum[peak - 1]!;
  const at = cepstrum[peak]!;
  const after = cepstrum[peak + 1]!;
  const curvature = before - 2 * at + after;
  const offset = curvature < 0 ? (0.5 * (before - after)) / curvature : 0;
  const height = at - 0.25 * (before - after) * offset;
  const trendFirst = Math.max(0, Math.round(s.trendFrom * rate));
  const trendLast = s.trendTo > 0 ? Math.min(lastBin, Math.round(s.trendTo * rate)) : lastBin;
  const quefrencies: number[] = [];
  const levels: number[] = [];
  for (let q = trendFirst; q <= trendLast; q++) {
    quefrencies.push(q / rate);
    levels.push(cepstrum[q]!);
  }
  const { slope, intercept } = theilLine(quefrencies, levels);
  return height - (intercept + slope * ((peak + offset) / rate));
};

/** CPPS in dB of a mono signal, or null when it is too short for one frame. */
export const cpps = (x: Float32Array, fs: number, s: CppsSettings = CPPS_DEFAULTS): number | null => {
  const { frames, rate } = powerCepstrogram(x, fs, s);
  if (frames.length === 0) return null;
  const smoothed = averageAcrossTime(frames, oddCount(s.timeAveraging, s.timeStep));
  const bins = oddCount(s.quefrencyAveraging, 1 / rate);
  let sum = 0;
  for (const frame of smoothed) sum += peakProminence(averageAcrossQuefrency(frame, bins), rate, s);
  return sum / smoothed.length;
};
