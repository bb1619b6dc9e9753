/**
 * Glottal pulses, as Praat's manual describes "Sound & Pitch: To PointProcess (cc)": the voiced
 * intervals come from the pitch track's voiced/unvoiced decisions; in each, the first pulse is the
 * absolute extremum of the signal within half a period of the interval's midpoint; from there pulses are
 * sought leftwards and rightwards, each 0.8 to 1.2 local periods from the previous one, where one period
 * of signal around it correlates best with one period around the previous pulse (the correlation's
 * maximum refined by a parabola); a pulse whose correlation is under 0.3 is dropped, and one pulse past
 * the interval's edge is kept when its correlation exceeds 0.7. What the manual leaves open is settled
 * by measurement on Praat (docs/acoustics.md, "Pulses").
 */
import { frameTime } from './frames';
import type { PitchTrack } from './pitch';

/** The search for the next pulse, in local periods from the previous pulse (the manual's 0.8 and 1.2). */
const NEAREST_NEXT_PULSE = 0.8;
const FARTHEST_NEXT_PULSE = 1.25;
/** Correlation a pulse needs to be kept; and to be kept past the voiced interval's edge. */
const KEPT_CORRELATION = 0.3;
const PAST_EDGE_CORRELATION = 0.7;

/**
 * F0 at time t read from a pitch track: linear between the two frames around t; where one of the two
 * is unvoiced, the voiced one's value if t is nearer to it, else undefined (null); null outside the
 * signal. `duration` is the signal's length in seconds.
 */
export const pitchAt = (track: PitchTrack, t: number, duration: number): number | null => {
  const { grid, f0 } = track;
  if (grid.count === 0 || t < 0 || t > duration) return null;
  const position = (t - grid.firstTime) / grid.step;
  const below = Math.min(Math.max(Math.floor(position), 0), grid.count - 1);
  const above = Math.min(below + 1, grid.count - 1);
  const fraction = Math.min(Math.max(position - below, 0), 1);
  const low = f0[below]!;
  const high = f0[above]!;
  if (low > 0 && high > 0) return low + fraction * (high - low);
  const nearest = fraction < 0.5 ? low : high;
  return nearest > 0 ? nearest : null;
};

interface Interval {
  readonly start: number;
  readonly end: number;
}

/** The voiced stretches of a track: each from half a step before its first voiced frame to half a step after its last. */
const voicedIntervals = (track: PitchTrack, duration: number): Interval[] => {
  const { grid, f0 } = track;
  const intervals: Interval[] = [];
  let first = -1;
  for (let i = 0; i <= grid.count; i++) {
    const voiced = i < grid.count && f0[i]! > 0;
    if (voiced && first < 0) first = i;
    if (!voiced && first >= 0) {
      const start = Math.max(0, frameTime(grid, first) - 0.5 * grid.step);
      const end = Math.min(duration, frameTime(grid, i - 1) + 0.5 * grid.step);
      intervals.push({ start, end });
      first = -1;
    }
  }
  return intervals;
};

/** The time of the sample of greatest absolute value whose time lies in [from, to], refined by a parabola. */
const absoluteExtremumTime = (x: Float32Array, fs: number, from: number, to: number): number | null => {
  const first = Math.max(0, Math.ceil(from * fs - 0.5));
  const last = Math.min(x.length - 1, Math.floor(to * fs - 0.5));
  if (last < first) return null;
  let best = first;
  for (let k = first + 1; k <= last; k++) if (Math.abs(x[k]!) > Math.abs(x[best]!)) best = k;
  const offset =
    best > 0 && best < x.length - 1
      ? parabolaPeakOffset(Math.abs(x[best - 1]!), Math.abs(x[best]!), Math.abs(x[best + 1]!))
      : 0;
  return (best + 0.5 + offset) / fs;
};

/** Where, in samples from the middle one, the parabola through three equally spaced values peaks. */
const parabolaPeakOffset = (before: number, middle: number, after: number): number => {
  const curvature = before - 2 * middle + after;
  if (curvature >= 0) return 0;
  const offset = (0.5 * (before - after)) / curvature;
  return Math.max(-1, Math.min(1, offset));
};

/** The normalised correlation of `length` samples starting at a and at b (0 when either is silent or out of range). */
const windowCorrelation = (x: Float32Array, a: number, b: number, length: number): number => {
  if (a < 0 || b < 0 || a + length > x.length || b + length > x.length) return 0;
  let cross = 0;
  let energyA = 0;
  let energyB = 0;
  for (let k = 0; k < length; k++) {
    const u = x[a + k]!;
    const v = x[b + k]!;
    cross += u * v;
    energyA += u * u;
    energyB += v * v;
  }
  return energyA > 0 && energyB > 0 ? cross / Math.sqrt(energyA * energyB) : 0;
};

interface Match {
  readonly time: number;
  readonly correlation: number;
}

/**
 * The time between `from` and `to` around which one period of signal best matches one period around
 * `pulse`: the highest normalised correlation over whole-sample shifts of the window, refined by the
 * parabola through it and its neighbours; null when no shift fits in the range.
 */
const bestMatch = (
  x: Float32Array,
  fs: number,
  pulse: number,
  period: number,
  from: number,
  to: number,
): Match | null => {
  const halfWindow = Math.max(1, Math.round(0.5 * period * fs));
  const length = 2 * halfWindow + 1;
  const reference = Math.round(pulse * fs - 0.5) - halfWindow;
  const firstShift = Math.ceil((from - pulse) * fs);
  const lastShift = Math.floor((to - pulse) * fs);
  if (lastShift < firstShift) return null;
  const scores: number[] = [];
  for (let shift = firstShift - 1; shift <= lastShift + 1; shift++)
    scores.push(windowCorrelation(x, reference, reference + shift, length));
  let best = 1;
  for (let i = 2; i < scores.length - 1; i++) if (scores[i]! > scores[best]!) best = i;
  const offset = parabolaPeakOffset(scores[best - 1]!, scores[best]!, scores[best + 1]!);
  const shift = firstShift - 1 + best + offset;
  return { time: pulse + shift / fs, correlation: scores[best]! };
};

/**
 * The pulses after `start` in one direction (+1 rightwards, −1 leftwards) up to the interval's `edge`:
 * each found from the previous one by bestMatch; a match under the kept correlation ends the search, and
 * so does one past the edge (kept when it correlates above PAST_EDGE_CORRELATION) or an undefined pitch.
 */
const followPulses = (
  x: Float32Array,
  fs: number,
  track: PitchTrack,
  start: number,
  direction: 1 | -1,
  edge: number,
): number[] => {
  const duration = x.length / fs;
  const found: number[] = [];
  let previous = start;
  for (;;) {
    const f0 = pitchAt(track, previous, duration);
    if (f0 === null) break;
    const period = 1 / f0;
    const near = previous + direction * NEAREST_NEXT_PULSE * period;
    const far = previous + direction * FARTHEST_NEXT_PULSE * period;
    const match = bestMatch(x, fs, previous, period, Math.min(near, far), Math.max(near, far));
    if (match === null) break;
    const pastEdge = direction > 0 ? match.time > edge : match.time < edge;
    if (pastEdge) {
      if (match.correlation > PAST_EDGE_CORRELATION) found.push(match.time);
      break;
    }
    if (match.correlation >= KEPT_CORRELATION) found.push(match.time);
    previous = match.time;
  }
  return found;
};

/** The pulses of one voiced interval, in time order. */
const intervalPulses = (x: Float32Array, fs: number, track: PitchTrack, interval: Interval): number[] => {
  const middle = 0.5 * (interval.start + interval.end);
  const f0 = pitchAt(track, middle, x.length / fs);
  if (f0 === null) return [];
  const first = absoluteExtremumTime(x, fs, middle - 0.5 / f0, middle + 0.5 / f0);
  if (first === null) return [];
  const left = followPulses(x, fs, track, first, -1, interval.start).reverse();
  const right = followPulses(x, fs, track, first, 1, interval.end);
  return [...left, first, ...right];
};

/** Glottal pulse times (seconds, ascending) of a signal, given its pitch track. */
export const toPointProcess = (x: Float32Array, fs: number, track: PitchTrack): Float64Array => {
  const pulses: number[] = [];
  for (const interval of voicedIntervals(track, x.length / fs)) {
    for (const t of intervalPulses(x, fs, track, interval)) {
      // A pulse sought past an edge can land on one of the neighbouring interval's pulses.
      if (pulses.length > 0 && t <= pulses[pulses.length - 1]!) continue;
      pulses.push(t);
    }
  }
  return Float64Array.from(pulses);
};
