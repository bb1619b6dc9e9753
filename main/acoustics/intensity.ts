/**
 * Intensity contour as Praat's manual describes "Sound: To Intensity...": the signal is squared and
 * averaged under a Kaiser window (β = 2π² + 0.5, near-Gaussian) of physical length 6.4 / minimum
 * pitch (effective length 3.2 / minimum pitch), frames 0.8 / minimum pitch apart unless a time step is
 * given; with "subtract mean", the plain mean of the samples under the window is removed first. Values in dB re 2·10⁻⁵ Pa (a full-scale
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
  const halfSeconds = windowSeconds / 2;
  const half = Math.floor(halfSeconds * fs);
  const n = 2 * half + 1;
  const w = new Float64Array(n);
  const beta = 2 * Math.PI * Math.PI + 0.5;
  for (let j = 0; j < n; j++) {
    const u = (j - half) / fs / halfSeconds;
    w[j] = besselI0(beta * Math.sqrt(Math.max(0, 1 - u * u)));
  }
  const db = new Float64Array(grid.count);
  for (let i = 0; i < grid.count; i++) {
    const c = sampleAt(frameTime(grid, i), fs);
    const j0 = Math.max(0, half - c);
    const j1 = Math.min(n - 1, x.length - 1 - c + half);
    let m = 0;
    if (subtractMean && j1 >= j0) {
      for (let j = j0; j <= j1; j++) m += x[c - half + j]!;
      m /= j1 - j0 + 1;
    }
    let sw = 0;
    let swxx = 0;
    for (let j = j0; j <= j1; j++) {
      const v = x[c - half + j]! - m;
      const ww = w[j]!;
      sw += ww;
      swxx += ww * v * v;
    }
    const relative = sw > 0 ? swxx / sw / 4e-10 : 0;
    db[i] = relative < 1e-30 ? SILENT_DB : 10 * Math.log10(relative);
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
