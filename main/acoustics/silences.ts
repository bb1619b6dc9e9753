/**
 * Silent and sounding intervals as Praat's manual describes "Sound: To TextGrid (silences)...": an
 * intensity contour (minimum pitch, time step), a frame is silent when its intensity is below the
 * contour's maximum plus `thresholdDb` (a negative number); silent intervals shorter than
 * `minSilentSeconds` are then absorbed into the sound around them, and sounding intervals shorter than
 * `minSoundingSeconds` into the silence around them. Boundaries fall halfway between frames.
 */
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

export const findSilences = (
  x: Float32Array,
  fs: number,
  s: SilenceSettings = SILENCE_DEFAULTS,
): Interval[] => {
  const duration = x.length / fs;
  const { grid, db } = toIntensity(x, fs, s.minPitch, s.timeStep, true);
  if (grid.count === 0) return [{ start: 0, end: duration, sounding: false }];
  let max = -Infinity;
  for (const v of db) if (v > max) max = v;
  const threshold = max + s.thresholdDb;
  const raw: Interval[] = [];
  for (let i = 0; i < grid.count; i++) {
    const t = frameTime(grid, i);
    raw.push({
      start: i === 0 ? 0 : t - grid.step / 2,
      end: i === grid.count - 1 ? duration : t + grid.step / 2,
      sounding: db[i]! >= threshold,
    });
  }
  return absorb(absorb(merge(raw), true, s.minSoundingSeconds), false, s.minSilentSeconds);
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
