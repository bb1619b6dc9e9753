/**
 * The resampler of the converted copies: its response as its description promises (passband flat to
 * 6.4 kHz, nothing of what lies above 8 kHz folding back, at least 90 dB down), the same output whatever
 * the blocks it is fed in, and the SIMD dot product it sums with, against a double-precision sum.
 */
import { describe, expect, it } from 'vitest';
import { concatSamples } from '../../../main/audio/decode/concat-bytes';
import { createSimdWorkspace } from '../../../main/audio/simd-dot';
import { createSincResampler } from '../../../main/audio/sinc-resampler';

const tone = (hz: number, rate: number, seconds: number): Float32Array =>
  Float32Array.from(
    { length: Math.round(rate * seconds) },
    (_, i) => 0.5 * Math.sin((2 * Math.PI * hz * i) / rate),
  );

const rms = (x: Float32Array): number => Math.sqrt(x.reduce((s, v) => s + v * v, 0) / x.length);

const resample = (x: Float32Array, rate: number, block: number): Float32Array => {
  const r = createSincResampler(rate, 16_000);
  const parts: Float32Array[] = [];
  for (let i = 0; i < x.length; i += block) parts.push(r.push(x.subarray(i, i + block)));
  parts.push(r.finish());
  return concatSamples(parts);
};

/** The steady part of the output, away from the filter's run-in and run-out at either end. */
const middle = (x: Float32Array): Float32Array => x.subarray(1_600, x.length - 1_600);

describe('the sinc resampler to 16 kHz', () => {
  for (const rate of [44_100, 48_000, 22_050, 8_000]) {
    it(`from ${rate} Hz: a 1 kHz tone keeps its level, and gives floor(n·16000/${rate}) samples`, () => {
      const x = tone(1_000, rate, 2);
      const y = resample(x, rate, 4_096);
      expect(y.length).toBe(Math.floor((x.length * 16_000) / rate));
      expect(20 * Math.log10(rms(middle(y)) / rms(x))).toBeCloseTo(0, 2);
    });
  }

  for (const rate of [44_100, 48_000]) {
    it(`from ${rate} Hz: a 10 kHz tone (above the new Nyquist frequency) is at least 90 dB down, not folded to 6 kHz`, () => {
      const x = tone(10_000, rate, 2);
      const y = resample(x, rate, 4_096);
      expect(20 * Math.log10(rms(middle(y)) / rms(x))).toBeLessThan(-90);
    });
  }

  it('gives the same samples whatever the blocks it is fed in', () => {
    const x = tone(440, 44_100, 3).map((v, i) => v + 0.1 * Math.sin(i * 0.37));
    const whole = resample(x, 44_100, x.length);
    for (const block of [1, 7, 1_152, 4_096, 100_000]) {
      const y = resample(x, 44_100, block);
      expect(y.length).toBe(whole.length);
      expect(y.filter((v, i) => v !== whole[i]).length, `fed ${block} at a time`).toBe(0);
    }
  });
});

describe('the SIMD dot product', () => {
  it('sums four products at a time as a double-precision sum does, at any offset, and keeps its floats when it grows', () => {
    const ws = createSimdWorkspace(1_000);
    let seed = 1;
    const random = () => ((seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647) * 2 - 1;
    for (let i = 0; i < 1_000; i++) ws.floats[i] = random();
    for (const [x, h, n] of [
      [0, 500, 160],
      [3, 501, 4],
      [17, 601, 172],
      [250, 250, 0],
    ] as const) {
      let exact = 0;
      for (let j = 0; j < n; j++) exact += ws.floats[x + j]! * ws.floats[h + j]!;
      expect(Math.abs(ws.dot(x, h, n) - exact)).toBeLessThan(1e-5);
    }
    const before = ws.floats.slice(0, 1_000);
    ws.reserve(1_000_000);
    expect(ws.floats.length).toBeGreaterThanOrEqual(1_000_004);
    expect(ws.floats.slice(0, 1_000)).toEqual(before);
  });
});
