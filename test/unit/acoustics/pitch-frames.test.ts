import { describe, expect, it } from 'vitest';

import { frameGrid, frameTime } from '../../../main/acoustics/frames';
import { frameCandidates, pitchDefaults } from '../../../main/acoustics/pitch';

/**
 * The samples a To Pitch (cc) frame reads, as Praat 6.3.07 reads them
 * (scripts/validation/experiments/cc-extent.praat and peak-extent.praat, docs/acoustics.md): a 200 Hz
 * sound at 10 kHz, pitch floor 100 Hz, one sample disturbed, a frame at every sample. The offsets are
 * the disturbed sample's time minus the frame's centre, in samples, at both ends of the frames it moved.
 */
const fs = 10000;
const spike = 999; // 0-based: Praat's sample 1000
const sound = (tone: number, click: number): Float32Array =>
  Float32Array.from({ length: 2000 }, (_, k) => {
    const t = (k + 0.5) / fs;
    const periodic = Math.sin(2 * Math.PI * 200 * t) + 0.5 * Math.sin(2 * Math.PI * 400 * t + 1);
    return tone * periodic + (k === spike ? click : 0);
  });

const framesOf = (x: Float32Array) => {
  const grid = frameGrid(x.length, fs, 2 / 100, 1 / fs);
  const frames = frameCandidates(x, fs, pitchDefaults('cc', 100, 500), grid);
  const offsets = frames.map((_, i) => ((spike + 0.5) / fs - frameTime(grid, i)) * fs);
  return { frames, offsets };
};

const extent = (offsets: number[], hit: boolean[]): [number, number] => {
  const seen = offsets.filter((_, i) => hit[i]);
  return [Math.min(...seen), Math.max(...seen)];
};

describe('To Pitch (cc) frames, as measured on Praat', () => {
  it('correlates 98 samples starting 100.5 samples before the centre with the same length one lag on', () => {
    const { frames, offsets } = framesOf(sound(1, 1));
    const near200 = frames.map((c) => Math.max(0, ...c.r.filter((_, j) => Math.abs(c.freq[j]! - 200) < 50)));
    const drop = near200.map((r) => near200[0]! - r);
    const largest = Math.max(...drop);
    const [first, last] = extent(
      offsets,
      drop.map((d) => d > largest / 3),
    );
    expect(first).toBeCloseTo(-100.5, 6);
    expect(last).toBeCloseTo(46.5, 6); // the last sample of the window lagged by one period (50 samples)
  });

  it('takes the local peak over the 98 samples around the centre', () => {
    const { frames, offsets } = framesOf(sound(0.01, 1));
    // The unvoiced strength is near the voicing threshold only where the loud sample is in the local peak.
    const [first, last] = extent(
      offsets,
      frames.map((c) => c.strength[0]! < 1),
    );
    expect(first).toBeCloseTo(-48.5, 6);
    expect(last).toBeCloseTo(48.5, 6);
  });
});
