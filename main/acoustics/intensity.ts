/**
 * Intensity contour as Praat's manual describes "Sound: To Intensity...": the signal is squared and
 * averaged under a Kaiser-20 (near-Gaussian) window of physical length 6.4 / minimum pitch (effective
 * length 3.2 / minimum pitch), frames 0.8 / minimum pitch apart unless a time step is given; with
 * "subtract mean", the window-weighted mean is removed first. Values in dB re 2·10⁻⁵ Pa (a full-scale
 * sample value counts as 1 Pa). A frame of pure digital silence reads −300 dB.
 */
import { frameGrid, frameTime, sampleAt, type FrameGrid } from './frames';

export interface IntensityTrack {
  readonly grid: FrameGrid;
  readonly db: Float64Array;
}

/** Modified Bessel function of the first kind, order 0 (power series). */
const besselI0 = (x: number): number => {
  let sum = 1;
  let term = 1;
  const q = (x * x) / 4;
  for (let k = 1; k < 500; k++) {
    term *= q / (k * k);
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return sum;
};

export const SILENT_DB = -300;

export const toIntensity = (
  x: Float32Array,
  fs: number,
  minPitch = 100,
  timeStep = 0,
  subtractMean = true,
): IntensityTrack => {
  const windowSeconds = 6.4 / minPitch;
  const dt = timeStep > 0 ? timeStep : 0.8 / minPitch;
  const grid = frameGrid(x.length, fs, windowSeconds, dt);
  const half = Math.floor((windowSeconds * fs) / 2);
  const n = 2 * half + 1;
  const w = new Float64Array(n);
  const i0 = besselI0(20);
  for (let j = 0; j < n; j++) {
    const u = (j - half) / (half + 1);
    w[j] = besselI0(20 * Math.sqrt(Math.max(0, 1 - u * u))) / i0;
  }
  const db = new Float64Array(grid.count);
  for (let i = 0; i < grid.count; i++) {
    const c = sampleAt(frameTime(grid, i), fs);
    let sw = 0;
    let swx = 0;
    let swxx = 0;
    for (let j = 0; j < n; j++) {
      const k = c - half + j;
      if (k < 0 || k >= x.length) continue;
      const v = x[k]!;
      const ww = w[j]!;
      sw += ww;
      swx += ww * v;
      swxx += ww * v * v;
    }
    let power = sw > 0 ? swxx / sw : 0;
    if (subtractMean && sw > 0) {
      const m = swx / sw;
      power -= m * m;
    }
    db[i] = power > 1e-30 ? 10 * Math.log10(power / 4e-10) : SILENT_DB;
  }
  return { grid, db };
};

/** Mean of the contour as an energy average: 10·log10 of the mean of 10^(dB/10). */
export const energyMeanDb = (db: Float64Array): number | null => {
  if (db.length === 0) return null;
  let s = 0;
  for (const v of db) s += 10 ** (v / 10);
  return 10 * Math.log10(s / db.length);
};
