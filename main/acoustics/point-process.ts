/**
 * Glottal pulses ("Sound & Pitch: To PointProcess (cc)" in Praat's manual). For every voiced interval of
 * a pitch track (whole frames: from half a step before its first voiced frame to half a step after its
 * last), the first pulse is the absolute extremum of the signal within half a period of the interval's
 * midpoint (parabolically interpolated). From there pulses are sought to the left and to the right: the
 * next pulse lies between 0.8 and 1.25 local periods from the previous one, where one period of signal
 * around it correlates best with one period around the previous pulse (the first local maximum that
 * beats every earlier one, parabolically interpolated). A pulse is kept when that correlation exceeds
 * 0.3 and the signal there reaches 1 % of the sound's absolute peak; the search runs on while the pitch
 * at the last pulse is defined, and one pulse past the interval's edge is kept when it correlates above
 * 0.7 and reaches 2.3 % of the peak. A pulse sought leftwards is not added where a pulse found
 * rightwards from the previous interval lies within 0.8 periods of it.
 *
 * The local pitch is read as Praat reads a Pitch at a time: linear between the two nearest frames,
 * undefined when the nearest frame is unvoiced, the nearest value when only the other one is.
 */
import type { PitchTrack } from './pitch';

/** F0 at time t in a pitch track, or null where it is undefined (see the module comment). */
export const pitchAt = (track: PitchTrack, t: number, duration: number): number | null => {
  const { grid, f0 } = track;
  if (t < 0 || t > duration || grid.count === 0) return null;
  const pos = (t - grid.firstTime) / grid.step;
  const left = Math.floor(pos);
  let phase = pos - left;
  let near = left;
  let far = left + 1;
  if (phase >= 0.5) {
    near = left + 1;
    far = left;
    phase = 1 - phase;
  }
  if (near < 0 || near >= grid.count) return null;
  const a = f0[near]!;
  if (!(a > 0)) return null;
  if (far < 0 || far >= grid.count) return a;
  const b = f0[far]!;
  return b > 0 ? a + phase * (b - a) : a;
};

/** Sample k of a signal at fs sits at (k + 0.5) / fs; these give the sample just below, above or nearest t. */
const lowIndex = (t: number, fs: number): number => Math.floor(t * fs - 0.5);
const highIndex = (t: number, fs: number): number => Math.ceil(t * fs - 0.5);
const nearestIndex = (t: number, fs: number): number => Math.round(t * fs - 0.5);

/** Time of the sample of greatest absolute value between tmin and tmax, parabolically interpolated. */
const findExtremum = (x: Float32Array, fs: number, tmin: number, tmax: number): number => {
  const i0 = Math.max(0, lowIndex(tmin, fs));
  const i1 = Math.min(x.length - 1, highIndex(tmax, fs));
  if (i1 < i0) return 0.5 * (tmin + tmax);
  let imin = i0;
  let imax = i0;
  for (let i = i0 + 1; i <= i1; i++) {
    if (x[i]! < x[imin]!) imin = i;
    if (x[i]! > x[imax]!) imax = i;
  }
  if (x[imin] === x[imax]) return (0.5 * (i0 + i1) + 0.5) / fs;
  const k = Math.abs(x[imin]!) > Math.abs(x[imax]!) ? imin : imax;
  if (k === i0 || k === i1) return (k + 0.5) / fs;
  const a = x[k - 1]!;
  const b = x[k]!;
  const c = x[k + 1]!;
  return (k + (0.5 * (c - a)) / (2 * b - a - c) + 0.5) / fs;
};

interface Correlation {
  /** The best time, or null when no correlation could be computed (the caller steps one period on). */
  readonly t: number | null;
  readonly r: number;
  /** Absolute peak of the signal in the window that followed the best one. */
  readonly peak: number;
}

/**
 * Where between tmin2 and tmax2 one window of signal best resembles the window around t1 (both
 * `windowLength` long): the first local maximum of the normalised correlation that beats all earlier
 * ones, refined by a parabola through it and its neighbours (Praat 6.3 keeps the refined time even
 * where it falls just outside [tmin2, tmax2]; so does this).
 */
const maximumCorrelation = (
  x: Float32Array,
  fs: number,
  t1: number,
  windowLength: number,
  tmin2: number,
  tmax2: number,
): Correlation => {
  const half = 0.5 * windowLength;
  const left1 = nearestIndex(t1 - half, fs);
  const right1 = nearestIndex(t1 + half, fs);
  const left2min = lowIndex(tmin2 - half, fs);
  const left2max = highIndex(tmax2 - half, fs);
  let best = -1;
  let rBefore = NaN;
  let rAfter = NaN;
  let at = NaN;
  let peak = 0;
  let r2 = 0;
  let r3 = 0;
  for (let left2 = left2min; left2 <= left2max; left2++) {
    let n1 = 0;
    let n2 = 0;
    let prod = 0;
    let localPeak = 0;
    for (let i1 = left1, i2 = left2; i1 <= right1; i1++, i2++) {
      if (i1 < 0 || i1 >= x.length || i2 < 0 || i2 >= x.length) continue;
      const a = x[i1]!;
      const b = x[i2]!;
      n1 += a * a;
      n2 += b * b;
      prod += a * b;
      if (Math.abs(b) > localPeak) localPeak = Math.abs(b);
    }
    const r1 = r2;
    r2 = r3;
    r3 = n1 === 0 || n2 === 0 ? 0 : prod / Math.sqrt(n1 * n2);
    if (r2 > best && r2 >= r1 && r2 >= r3) {
      rBefore = r1;
      best = r2;
      rAfter = r3;
      at = left2 - 1;
      peak = localPeak;
    }
  }
  if (best <= -1) return { t: null, r: best, peak };
  let height = NaN;
  const d2r = best - rBefore + (best - rAfter);
  if (d2r !== 0) {
    const dr = 0.5 * (rAfter - rBefore);
    height = best + (0.5 * dr * dr) / d2r;
    at += dr / d2r;
  }
  return { t: t1 + (at - left1) / fs, r: Number.isNaN(height) ? best : height, peak };
};

/** The next voiced interval of the track whose frames start at or after `after`, in seconds. */
const voicedIntervalAfter = (
  track: PitchTrack,
  after: number,
  duration: number,
): { left: number; right: number } | null => {
  const { grid, f0 } = track;
  let i = Math.max(0, Math.ceil((after - grid.firstTime) / grid.step - 1e-9));
  while (i < grid.count && !(f0[i]! > 0)) i++;
  if (i >= grid.count) return null;
  let j = i;
  while (j + 1 < grid.count && f0[j + 1]! > 0) j++;
  const left = grid.firstTime + i * grid.step - 0.5 * grid.step;
  const right = grid.firstTime + j * grid.step + 0.5 * grid.step;
  if (left >= duration - 0.5 * grid.step) return null;
  const r = Math.min(duration, right);
  return r <= after ? null : { left: Math.max(0, left), right: r };
};

export const toPointProcess = (x: Float32Array, fs: number, track: PitchTrack): Float64Array => {
  const duration = x.length / fs;
  let globalPeak = 0;
  for (let i = 0; i < x.length; i++) globalPeak = Math.max(globalPeak, Math.abs(x[i]!));
  const points: number[] = [];
  let addedRight = -Infinity;
  let t = 0;
  for (;;) {
    const interval = voicedIntervalAfter(track, t, duration);
    if (interval === null) break;
    const { left, right } = interval;
    const middle = 0.5 * (left + right);
    const f0middle = pitchAt(track, middle, duration);
    if (f0middle === null) {
      t = right;
      continue;
    }
    const first = findExtremum(x, fs, middle - 0.5 / f0middle, middle + 0.5 / f0middle);
    points.push(first);

    let tmax = first;
    for (;;) {
      const f0 = pitchAt(track, tmax, duration);
      if (f0 === null) break;
      const c = maximumCorrelation(x, fs, tmax, 1 / f0, tmax - 1.25 / f0, tmax - 0.8 / f0);
      tmax = c.t ?? tmax - 1 / f0;
      if (tmax < left) {
        if (c.r > 0.7 && c.peak > 0.023333 * globalPeak && tmax - addedRight > 0.8 / f0) points.push(tmax);
        break;
      }
      if (c.r > 0.3 && (c.peak === 0 || c.peak > 0.01 * globalPeak) && tmax - addedRight > 0.8 / f0)
        points.push(tmax);
    }

    tmax = first;
    for (;;) {
      const f0 = pitchAt(track, tmax, duration);
      if (f0 === null) break;
      const c = maximumCorrelation(x, fs, tmax, 1 / f0, tmax + 0.8 / f0, tmax + 1.25 / f0);
      tmax = c.t ?? tmax + 1 / f0;
      if (tmax > right) {
        if (c.r > 0.7 && c.peak > 0.023333 * globalPeak) {
          points.push(tmax);
          addedRight = tmax;
        }
        break;
      }
      if (c.r > 0.3 && (c.peak === 0 || c.peak > 0.01 * globalPeak)) {
        points.push(tmax);
        addedRight = tmax;
      }
    }
    t = right;
  }
  points.sort((a, b) => a - b);
  const unique = points.filter((p, i) => i === 0 || p !== points[i - 1]);
  return Float64Array.from(unique);
};
