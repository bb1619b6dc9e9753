/**
 * Glottal pulses ("Sound & Pitch: To PointProcess (cc)" in Praat's manual): for every voiced interval of
 * a pitch track, the first pulse is the absolute extremum of the signal within half a period of the
 * interval's midpoint; from there pulses are sought to the left and to the right, each between 0.8 and
 * 1.2 local periods from the previous one, where the cross-correlation of one period of signal around
 * it with one period around the previous pulse is greatest (parabolic interpolation between samples).
 * Pulses whose correlation is below 0.3 are dropped, and the search may step one pulse past the edge of
 * the interval when that pulse correlates above 0.7.
 */
import { frameTime } from './frames';
import type { PitchTrack } from './pitch';

/** F0 at time t by linear interpolation between voiced frames (the nearest voiced frame at an edge). */
export const pitchAt = (track: PitchTrack, t: number): number => {
  const { grid, f0 } = track;
  const pos = (t - grid.firstTime) / grid.step;
  const i = Math.max(0, Math.min(grid.count - 1, Math.floor(pos)));
  const j = Math.min(grid.count - 1, i + 1);
  const a = f0[i]!;
  const b = f0[j]!;
  if (a > 0 && b > 0) {
    const u = Math.max(0, Math.min(1, pos - i));
    return a + (b - a) * u;
  }
  if (a > 0) return a;
  if (b > 0) return b;
  for (let d = 1; d < grid.count; d++) {
    if (i - d >= 0 && f0[i - d]! > 0) return f0[i - d]!;
    if (j + d < grid.count && f0[j + d]! > 0) return f0[j + d]!;
  }
  return 0;
};

/** Normalised cross-correlation of x around samples a and b over ±half samples. */
const correlation = (x: Float32Array, a: number, b: number, half: number): number => {
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let k = -half; k <= half; k++) {
    const ia = a + k;
    const ib = b + k;
    const va = ia >= 0 && ia < x.length ? x[ia]! : 0;
    const vb = ib >= 0 && ib < x.length ? x[ib]! : 0;
    sab += va * vb;
    saa += va * va;
    sbb += vb * vb;
  }
  return saa > 0 && sbb > 0 ? sab / Math.sqrt(saa * sbb) : 0;
};

/** The best-correlating time between lo and hi seconds for a pulse echoing the one at `from`. */
const nextPulse = (
  x: Float32Array,
  fs: number,
  from: number,
  period: number,
  lo: number,
  hi: number,
): { t: number; r: number } => {
  const half = Math.max(1, Math.round((period * fs) / 2));
  const a = Math.round(from * fs - 0.5);
  const k0 = Math.ceil(lo * fs - 0.5);
  const k1 = Math.floor(hi * fs - 0.5);
  let best = -Infinity;
  let arg = k0;
  const rs = new Map<number, number>();
  for (let k = k0; k <= k1; k++) {
    const r = correlation(x, a, k, half);
    rs.set(k, r);
    if (r > best) {
      best = r;
      arg = k;
    }
  }
  let t = (arg + 0.5) / fs;
  const ra = rs.get(arg - 1);
  const rb = rs.get(arg + 1);
  if (ra !== undefined && rb !== undefined) {
    const den = ra - 2 * best + rb;
    if (den < 0) {
      const d = (0.5 * (ra - rb)) / den;
      t += d / fs;
      best -= 0.25 * (ra - rb) * d;
    }
  }
  return { t, r: best };
};

export const toPointProcess = (x: Float32Array, fs: number, track: PitchTrack): Float64Array => {
  const { grid, f0 } = track;
  const duration = x.length / fs;
  const points: number[] = [];
  let i = 0;
  while (i < grid.count) {
    if (f0[i]! <= 0) {
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < grid.count && f0[j + 1]! > 0) j++;
    const left = Math.max(0, frameTime(grid, i) - grid.step / 2);
    const right = Math.min(duration, frameTime(grid, j) + grid.step / 2);
    i = j + 1;
    const mid = 0.5 * (left + right);
    const p0 = 1 / pitchAt(track, mid);
    // First pulse: the absolute extremum within half a period of the midpoint.
    const k0 = Math.max(0, Math.round((mid - p0 / 2) * fs - 0.5));
    const k1 = Math.min(x.length - 1, Math.round((mid + p0 / 2) * fs - 0.5));
    let arg = k0;
    for (let k = k0; k <= k1; k++) if (Math.abs(x[k]!) > Math.abs(x[arg]!)) arg = k;
    const first = (arg + 0.5) / fs;
    const found = [first];
    for (const dir of [-1, 1] as const) {
      let prev = first;
      for (;;) {
        const period = 1 / pitchAt(track, prev);
        const lo = dir < 0 ? prev - 1.2 * period : prev + 0.8 * period;
        const hi = dir < 0 ? prev - 0.8 * period : prev + 1.2 * period;
        if (lo < 0 || hi > duration) break;
        const { t, r } = nextPulse(x, fs, prev, period, lo, hi);
        const outside = dir < 0 ? t < left : t > right;
        if (outside) {
          if (r > 0.7) found.push(t);
          break;
        }
        if (r >= 0.3) found.push(t);
        prev = t;
      }
    }
    points.push(...found);
  }
  points.sort((a, b) => a - b);
  return Float64Array.from(points);
};
