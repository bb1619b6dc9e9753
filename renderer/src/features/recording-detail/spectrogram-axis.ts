/**
 * The spectrogram's axes, written once: the wavesurfer spectrogram plugin is created with these
 * options (Listen.tsx) and the pitch track is drawn on the same scales (PitchTrackLayer.tsx).
 *
 * Frequency: logarithmic from 50 Hz to 8 kHz (the Nyquist frequency of the 16 kHz the waveform is
 * decoded at), so the pitch range (75–500 Hz) takes the lower 45 % of the height instead of the lower
 * 6 % on a linear axis; the formants stay visible above. The plugin maps a frequency f to the height
 * share (s(f) − s(min)) / (s(max) − s(min)) with s = log10 for its 'logarithmic' scale (its labels and
 * its image crop use the same rule). A 1024-sample window (64 ms) resolves the harmonics, so the drawn
 * F0 lies on the lowest one.
 *
 * Time: the plugin spreads the whole recording over the waveform's full (zoomed) width, so a time t is
 * at t / duration × that width.
 */
export const SPECTROGRAM = {
  height: 160,
  scale: 'logarithmic',
  frequencyMin: 50,
  frequencyMax: 8000,
  fftSamples: 1024,
} as const;

const s = (hz: number): number => Math.log10(Math.max(1, hz));

/** The y of a frequency in the spectrogram, in pixels from its top (outside the axis: beyond 0 or height). */
export const frequencyToY = (hz: number, height: number = SPECTROGRAM.height): number =>
  height *
  (1 - (s(hz) - s(SPECTROGRAM.frequencyMin)) / (s(SPECTROGRAM.frequencyMax) - s(SPECTROGRAM.frequencyMin)));

/** The frequency drawn at y pixels from the spectrogram's top (the inverse of frequencyToY). */
export const yToFrequency = (y: number, height: number = SPECTROGRAM.height): number =>
  10 **
  (s(SPECTROGRAM.frequencyMin) +
    (1 - y / height) * (s(SPECTROGRAM.frequencyMax) - s(SPECTROGRAM.frequencyMin)));

export interface TrackFrames {
  readonly firstTime: number;
  readonly step: number;
  /** Hz per frame, 0 = unvoiced. */
  readonly f0: readonly number[];
}

/** A voiced stretch of the track as drawn: the index of its first frame and its points in pixels. */
export interface TrackRun {
  readonly from: number;
  readonly points: readonly (readonly [number, number])[];
}

/**
 * The voiced stretches of a track as lines over a spectrogram `width` pixels wide (the whole recording)
 * and `height` high: frame i at x = (firstTime + i·step) / duration × width. Unvoiced frames break the
 * line; a stretch of one frame is a point.
 */
export const trackRuns = (
  t: TrackFrames,
  duration: number,
  width: number,
  height: number = SPECTROGRAM.height,
): TrackRun[] => {
  const runs: TrackRun[] = [];
  if (!(duration > 0) || !(width > 0)) return runs;
  let current: { from: number; points: [number, number][] } | null = null;
  t.f0.forEach((f, i) => {
    if (!(f > 0)) {
      current = null;
      return;
    }
    const x = ((t.firstTime + i * t.step) / duration) * width;
    const point: [number, number] = [x, frequencyToY(f, height)];
    if (current) current.points.push(point);
    else runs.push((current = { from: i, points: [point] }));
  });
  return runs;
};

/** An SVG path of a run, coordinates to 0.01 px. */
export const runPath = (r: TrackRun): string =>
  r.points
    .map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${x.toFixed(2)},${y.toFixed(2)}`)
    .join(' ')
    .concat(r.points.length === 1 ? ' h0.01' : '');

export interface TrackSummary {
  readonly medianHz: number;
  readonly minHz: number;
  readonly maxHz: number;
  readonly voicedShare: number;
}

/** Median, range and voiced share of a track, for its text alternative; null when nothing is voiced. */
export const trackSummary = (t: TrackFrames): TrackSummary | null => {
  const voiced = t.f0.filter((f) => f > 0).sort((a, b) => a - b);
  if (voiced.length === 0) return null;
  const mid = voiced.length >> 1;
  return {
    medianHz: voiced.length % 2 ? voiced[mid]! : (voiced[mid - 1]! + voiced[mid]!) / 2,
    minHz: voiced[0]!,
    maxHz: voiced.at(-1)!,
    voicedShare: voiced.length / t.f0.length,
  };
};
