/**
 * Resampling held to what Praat 6.3.07's "Sound: Resample..." (precision 50) printed for impulses
 * (scripts/validation/experiments/resample-kernel.praat; docs/acoustics.md, "CPPS").
 */
import { describe, expect, it } from 'vitest';

import { resampleSound } from '../../../main/acoustics/resample';

const impulse = (rate: number, at: number): Float32Array => {
  const x = new Float32Array(rate);
  x[at] = 1;
  return x;
};

describe('raising the rate: a windowed sinc, 50 samples deep on each side', () => {
  it("reproduces Praat's samples of a one-second 8-kHz impulse resampled to 10 kHz", () => {
    const y = resampleSound(impulse(8000, 4000), 8000, 10_000);
    expect(y).toHaveLength(10_000);
    // Sample number (1-based) and Praat's value.
    const praat: [number, number][] = [
      [4939, -0.000004972059],
      [4992, -0.03347468881],
      [4998, 0.126555582403],
      [5001, 0.983621973776],
      [5002, 0.367710004416],
      [5011, -0.011725525394],
    ];
    for (const [sample, value] of praat) expect(y[sample - 1]).toBeCloseTo(value, 10);
    expect(y[4937]).toBe(0);
  });
});

describe('lowering the rate: everything above the new Nyquist frequency removed first', () => {
  const tone = (hz: number): Float32Array =>
    Float32Array.from({ length: 16_000 }, (_, i) => Math.sin((2 * Math.PI * hz * (i + 0.5)) / 16_000));
  const rmsOfMiddle = (y: Float64Array): number => {
    let sum = 0;
    for (let i = 2500; i < 7500; i++) sum += y[i]! ** 2;
    return Math.sqrt(sum / 5000);
  };

  it('keeps a 4,900-Hz tone whole when 16 kHz falls to 10 kHz', () => {
    expect(rmsOfMiddle(resampleSound(tone(4900), 16_000, 10_000))).toBeCloseTo(Math.SQRT1_2, 2);
  });

  it('removes a 5,100-Hz tone', () => {
    expect(rmsOfMiddle(resampleSound(tone(5100), 16_000, 10_000))).toBeLessThan(0.01);
  });
});
