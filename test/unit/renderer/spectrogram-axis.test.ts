/**
 * The spectrogram's axes as the pitch track is drawn on them: the frequency axis is the spectrogram
 * plugin's logarithmic one (50 Hz at the bottom, 8 kHz at the top, equal ratios at equal heights), time
 * spreads the recording over the full width, unvoiced frames break the line, and the text alternative
 * gives the median, range and voiced share.
 */
import { describe, expect, it } from 'vitest';
import {
  SPECTROGRAM,
  frequencyToY,
  runPath,
  trackRuns,
  trackSummary,
  yToFrequency,
} from '../../../renderer/src/features/recording-detail/spectrogram-axis';

describe('the frequency axis', () => {
  it('puts 50 Hz at the bottom and 8 kHz at the top, logarithmically', () => {
    expect(frequencyToY(50)).toBeCloseTo(SPECTROGRAM.height, 9);
    expect(frequencyToY(8000)).toBeCloseTo(0, 9);
    // Equal ratios, equal distances: 100 → 200 Hz as far as 1 → 2 kHz.
    expect(frequencyToY(100) - frequencyToY(200)).toBeCloseTo(frequencyToY(1000) - frequencyToY(2000), 9);
    // The pitch range 75-500 Hz takes the lower 45 % of the height.
    expect(1 - frequencyToY(500) / SPECTROGRAM.height).toBeCloseTo(Math.log10(10) / Math.log10(160), 9);
  });

  it('reads a frequency back from its height', () => {
    for (const f of [62.5, 118, 240.25, 499, 3000]) expect(yToFrequency(frequencyToY(f))).toBeCloseTo(f, 6);
  });
});

describe('the track as drawn', () => {
  const track = { firstTime: 0.02, step: 0.01, f0: [0, 100, 110, 0, 0, 200, 0, 150] };

  it('breaks at unvoiced frames and places frame i at its time over the full width', () => {
    const runs = trackRuns(track, 1, 1000);
    expect(runs.map((r) => r.from)).toEqual([1, 5, 7]);
    expect(runs[0]!.points.map(([x]) => x)).toEqual([30, 40]);
    expect(runs[0]!.points[0]![1]).toBeCloseTo(frequencyToY(100), 9);
    expect(runs[2]!.points).toHaveLength(1);
    expect(runPath(runs[0]!)).toBe(
      `M30.00,${frequencyToY(100).toFixed(2)} L40.00,${frequencyToY(110).toFixed(2)}`,
    );
    // A lone voiced frame is still drawn (a dot).
    expect(runPath(runs[2]!)).toMatch(/ h0\.01$/);
  });

  it('draws nothing before the width and duration are known', () => {
    expect(trackRuns(track, 0, 1000)).toEqual([]);
    expect(trackRuns(track, 1, 0)).toEqual([]);
  });

  it('is summarised by its voiced frames: median, range, voiced share', () => {
    expect(trackSummary(track)).toEqual({ medianHz: 130, minHz: 100, maxHz: 200, voicedShare: 0.5 });
    expect(trackSummary({ ...track, f0: [0, 0] })).toBeNull();
  });
});
