/**
 * The time grid of a short-term analysis, laid out as Praat lays it out (and as its manual describes
 * for every "To ..." analysis): as many whole windows of `windowSeconds` as fit, `stepSeconds` apart,
 * the grid centred in the signal. Sample i of a signal sampled at fs sits at time (i + 0.5) / fs.
 */
export interface FrameGrid {
  readonly count: number;
  /** Time of the first frame's centre, seconds. */
  readonly firstTime: number;
  readonly step: number;
}

export const frameGrid = (
  sampleCount: number,
  sampleRate: number,
  windowSeconds: number,
  stepSeconds: number,
): FrameGrid => {
  const duration = sampleCount / sampleRate;
  const count = Math.max(0, Math.floor((duration - windowSeconds) / stepSeconds + 1e-9) + 1);
  const firstTime = 0.5 * duration - 0.5 * count * stepSeconds + 0.5 * stepSeconds;
  return { count, firstTime, step: stepSeconds };
};

export const frameTime = (grid: FrameGrid, i: number): number => grid.firstTime + i * grid.step;

/** Index of the sample nearest to time t (seconds). */
export const sampleAt = (t: number, sampleRate: number): number => Math.round(t * sampleRate - 0.5);
