/**
 * The speech estimate's light resampler: speech frequencies pass at their level, what lies above the new
 * Nyquist frequency is attenuated instead of folding back, the output has the new rate's length, and
 * streaming in uneven pieces gives the same samples as one piece.
 */
import { describe, expect, it } from 'vitest';
import { concatSamples } from '../../../main/audio/decode/concat-bytes';
import { createVadResampler } from '../../../main/audio/vad-resampler';

const sine = (hz: number, rate: number, seconds: number) =>
  Float32Array.from({ length: Math.round(rate * seconds) }, (_, i) =>
    Math.sin((2 * Math.PI * hz * i) / rate),
  );
const rms = (x: Float32Array) => Math.sqrt(x.reduce((s, v) => s + v * v, 0) / x.length);
const all = (from: number, to: number, x: Float32Array, piece = x.length) => {
  const r = createVadResampler(from, to);
  const parts: Float32Array[] = [];
  for (let i = 0; i < x.length; i += piece) parts.push(r.push(x.subarray(i, i + piece)));
  parts.push(r.flush());
  return concatSamples(parts);
};

describe('the speech estimate resampler', () => {
  it.each([
    [44_100, 16_000],
    [48_000, 16_000],
    [8_000, 16_000],
    [22_050, 16_000],
  ])('%i Hz to %i Hz: a 1 kHz tone keeps its level, and the length follows the rates', (from, to) => {
    const out = all(from, to, sine(1000, from, 2));
    expect(Math.abs(out.length - 2 * to)).toBeLessThanOrEqual(2);
    const middle = out.subarray(to / 2, (3 * to) / 2);
    expect(rms(middle)).toBeCloseTo(Math.SQRT1_2, 1);
    // Its frequency too: zero crossings of a 1 kHz tone over one second.
    let crossings = 0;
    for (let i = 1; i < middle.length; i++) if (middle[i - 1]! < 0 !== middle[i]! < 0) crossings++;
    expect(Math.abs(crossings - 2000)).toBeLessThanOrEqual(4);
  });

  it('a 12 kHz tone (above the new 8 kHz Nyquist frequency) is attenuated by more than 20 dB, not folded back', () => {
    const out = all(44_100, 16_000, sine(12_000, 44_100, 2));
    expect(rms(out.subarray(8000, 24_000))).toBeLessThan(0.1 * Math.SQRT1_2);
  });

  it('streaming in uneven pieces gives the same samples as one piece', () => {
    const x = sine(440, 44_100, 1.5).map((v, i) => v * Math.sin(i / 900));
    const whole = all(44_100, 16_000, x);
    const pieces = all(44_100, 16_000, x, 997);
    expect(pieces.length).toBe(whole.length);
    for (let i = 0; i < whole.length; i++) expect(pieces[i]).toBeCloseTo(whole[i]!, 5);
  });
});
