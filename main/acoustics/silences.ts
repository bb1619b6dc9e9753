/**
 * Silent and sounding intervals as Praat's manual describes "Sound: To TextGrid (silences)...": the
 * sound is first band-passed to 80-8000 Hz (Hann-shaped edges 80 Hz wide, applied to the spectrum of the
 * whole sound), then an intensity contour is taken (minimum pitch, time step); a frame is silent when
 * its intensity is below the contour's maximum (parabolically interpolated) plus `thresholdDb` (a
 * negative number). When that threshold lies below the contour's minimum, or the minimum silence is
 * longer than the sound, the whole sound is one sounding interval. A boundary falls at the first frame
 * of each new state. Sounding intervals shorter than `minSoundingSeconds` then become silent, and after
 * that silent intervals shorter than `minSilentSeconds` become sounding.
 */
import { fft, nextPow2 } from './fft';
import { frameTime } from './frames';
import { toIntensity } from './intensity';

export interface Interval {
  readonly start: number;
  readonly end: number;
  readonly sounding: boolean;
}

export interface SilenceSettings {
  readonly minPitch: number;
  readonly timeStep: number;
  readonly thresholdDb: number;
  readonly minSilentSeconds: number;
  readonly minSoundingSeconds: number;
}

export const SILENCE_DEFAULTS: SilenceSettings = {
  minPitch: 100,
  timeStep: 0,
  thresholdDb: -25,
  minSilentSeconds: 0.25,
  minSoundingSeconds: 0.1,
};

const merge = (list: Interval[]): Interval[] => {
  const out: Interval[] = [];
  for (const iv of list) {
    const last = out[out.length - 1];
    if (last && last.sounding === iv.sounding) out[out.length - 1] = { ...last, end: iv.end };
    else out.push(iv);
  }
  return out;
};

const absorb = (list: Interval[], sounding: boolean, minSeconds: number): Interval[] =>
  merge(
    list.map((iv) =>
      iv.sounding === sounding && iv.end - iv.start < minSeconds ? { ...iv, sounding: !sounding } : iv,
    ),
  );

/**
 * The sound band-passed between `low` and `high` Hz with raised-cosine edges `smooth` Hz to each side of
 * either cut-off, by zeroing and weighting its spectrum (the sound zero-padded to a power of two); the
 * upper edge is left alone when `high` is at or above the Nyquist frequency.
 */
export const passHannBand = (
  x: Float32Array,
  fs: number,
  low: number,
  high: number,
  smooth: number,
): Float32Array => {
  const n = nextPow2(x.length);
  const re = new Float64Array(n);
  const im = new Float64Array(n);
  for (let i = 0; i < x.length; i++) re[i] = x[i]!;
  fft(re, im);
  const nyquist = fs / 2;
  const gain = (f: number): number => {
    if (f < low - smooth || f > high + smooth) return 0;
    if (f < low + smooth && low > 0)
      return 0.5 - 0.5 * Math.cos((Math.PI / (2 * smooth)) * (f - (low - smooth)));
    if (f > high - smooth && high < nyquist)
      return 0.5 + 0.5 * Math.cos((Math.PI / (2 * smooth)) * (f - (high - smooth)));
    return 1;
  };
  for (let k = 0; k <= n / 2; k++) {
    const g = gain((k * fs) / n);
    re[k] = re[k]! * g;
    im[k] = im[k]! * g;
    if (k > 0 && k < n / 2) {
      re[n - k] = re[n - k]! * g;
      im[n - k] = im[n - k]! * g;
    }
  }
  fft(re, im, true);
  const y = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) y[i] = re[i]!;
  return y;
};

/** The extreme value of a contour, parabolically interpolated when it lies inside. */
const extremum = (v: Float64Array, sign: 1 | -1): number => {
  let k = 0;
  for (let i = 1; i < v.length; i++) if (sign * v[i]! > sign * v[k]!) k = i;
  if (k === 0 || k === v.length - 1) return v[k]!;
  const dy = 0.5 * (v[k + 1]! - v[k - 1]!);
  const d2y = 2 * v[k]! - v[k - 1]! - v[k + 1]!;
  return d2y === 0 ? v[k]! : v[k]! + (0.5 * dy * dy) / d2y;
};

export const findSilences = (
  x: Float32Array,
  fs: number,
  s: SilenceSettings = SILENCE_DEFAULTS,
): Interval[] => {
  const duration = x.length / fs;
  const filtered = passHannBand(x, fs, 80, 8000, 80);
  const { grid, db } = toIntensity(filtered, fs, s.minPitch, s.timeStep, true);
  const whole: Interval[] = [{ start: 0, end: duration, sounding: true }];
  if (grid.count === 0 || s.minSilentSeconds > duration) return whole;
  const max = extremum(db, 1);
  const min = extremum(db, -1);
  const threshold = max + s.thresholdDb;
  if (threshold < min) return whole;
  const raw: Interval[] = [];
  let start = 0;
  let silent = db[0]! < threshold;
  for (let i = 1; i < grid.count; i++) {
    const now = db[i]! < threshold;
    if (now === silent) continue;
    const t = frameTime(grid, i);
    raw.push({ start, end: t, sounding: !silent });
    start = t;
    silent = now;
  }
  raw.push({ start, end: duration, sounding: !silent });
  return absorb(absorb(raw, true, s.minSoundingSeconds), false, s.minSilentSeconds);
};

export interface PauseSummary {
  readonly pauseCount: number;
  readonly pauseMean: number | null;
  readonly pauseSd: number | null;
  readonly speechSeconds: number;
  /** Sounding time over the time from the first sounding onset to the last sounding offset. */
  readonly phonationRatio: number | null;
}

/** Pauses are the silent intervals between sounding ones (leading and trailing silence excluded). */
export const summarisePauses = (intervals: readonly Interval[]): PauseSummary => {
  const first = intervals.findIndex((iv) => iv.sounding);
  let last = -1;
  for (let i = intervals.length - 1; i >= 0; i--)
    if (intervals[i]!.sounding) {
      last = i;
      break;
    }
  let speech = 0;
  for (const iv of intervals) if (iv.sounding) speech += iv.end - iv.start;
  const pauses: number[] = [];
  for (let i = first + 1; first >= 0 && i < last; i++) {
    const iv = intervals[i]!;
    if (!iv.sounding) pauses.push(iv.end - iv.start);
  }
  const n = pauses.length;
  const mean = n > 0 ? pauses.reduce((a, b) => a + b, 0) / n : null;
  const sd =
    n > 1 && mean !== null ? Math.sqrt(pauses.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1)) : null;
  const span = first >= 0 ? intervals[last]!.end - intervals[first]!.start : 0;
  return {
    pauseCount: n,
    pauseMean: mean,
    pauseSd: sd,
    speechSeconds: speech,
    phonationRatio: span > 0 ? speech / span : null,
  };
};
