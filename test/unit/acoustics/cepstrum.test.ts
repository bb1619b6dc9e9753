/**
 * Smoothed cepstral peak prominence (Hillenbrand & Houde 1996) held to its definition — a periodic
 * signal has a clear cepstral peak at its period, noise has none — and to the values Praat 6.3.07
 * printed for the steps the descriptions leave open (scripts/validation/experiments/cepstrum-window.praat,
 * cpps-synthetic.praat; docs/acoustics.md, "CPPS").
 */
import { describe, expect, it } from 'vitest';

import {
  averagingWeights,
  cpps,
  forEachSmoothedFrameDb,
  peakProminence,
  powerCepstrogram,
  CPPS_DEFAULTS,
} from '../../../main/acoustics/cepstrum';
import { seeded } from '../../../scripts/validation/synthetic';

const RATE = 16_000;

/** One second of clicks every `period` samples, over a faint seeded noise (a recording's floor). */
const clickTrain = (period: number): Float32Array => {
  const noise = seeded(7);
  const x = Float32Array.from({ length: RATE }, () => 0.001 * (noise() - 0.5));
  for (let i = 16; i < RATE; i += period) x[i]! += 0.8;
  return x;
};

const whiteNoise = (): Float32Array => {
  const noise = seeded(11);
  return Float32Array.from({ length: RATE }, () => noise() - 0.5);
};

describe('the cepstral peak of a periodic signal (Hillenbrand & Houde 1996)', () => {
  it('lies at the period of a 125-Hz click train, far above the trend line in every frame', () => {
    const source = powerCepstrogram(clickTrain(128), RATE);
    const peaks: number[] = [];
    const prominences: number[] = [];
    forEachSmoothedFrameDb(source, CPPS_DEFAULTS, (cepstrum) => {
      const peak = peakProminence(cepstrum, source.rate);
      peaks.push(peak.quefrency);
      prominences.push(peak.prominenceDb);
    });
    expect(peaks.length).toBeGreaterThan(400);
    // 128 samples at 16 kHz: 8 ms. The 0.001-s averaging across quefrency flattens so sharp a peak into a
    // plateau 1 ms wide around it, whose first bin is taken.
    for (const q of peaks) expect(Math.abs(q - 0.008)).toBeLessThanOrEqual(0.0006);
    expect(Math.min(...prominences)).toBeGreaterThan(20);
  });

  it('gives white noise a low CPPS, far under a click train’s', () => {
    const noise = cpps(whiteNoise(), RATE)!;
    const clicks = cpps(clickTrain(128), RATE)!;
    expect(noise).toBeLessThan(3);
    expect(clicks - noise).toBeGreaterThan(20);
  });

  it('is null for a sound shorter than one analysis window (0.1 s), or silent throughout', () => {
    expect(cpps(new Float32Array(0.05 * RATE), RATE)).toBeNull();
    expect(cpps(new Float32Array(RATE), RATE)).toBeNull();
  });
});

describe('the steps measured on Praat', () => {
  it('frames the sound as Praat does: two clicks give Praat’s power cepstrum bin for bin (cepstrum-window.praat)', () => {
    const rate = 10_000;
    const x = new Float32Array(0.2 * rate);
    x[1000] = 0.5;
    x[1040] = 0.25;
    const frame = powerCepstrogram(x, rate).frameAt(25);
    const praat: [bin: number, db: number][] = [
      [1, 79.7452],
      [40, 73.1251],
      [60, 30.5804],
      [80, 60.7429],
      [99, 26.108],
      [140, 18.5781],
      [300, -4.2687],
    ];
    for (const [bin, db] of praat) expect(10 * Math.log10(frame[bin]!)).toBeCloseTo(db, 3);
  });

  it('averages over the linearly interpolated cepstrogram: 0.01 s is 5 frames, 0.001 s is 10 bins', () => {
    const close = (a: Float64Array, b: number[]) =>
      Array.from(a).forEach((v, i) => expect(v).toBeCloseTo(b[i]!, 12));
    close(averagingWeights(5), [0.025, 0.175, 0.2, 0.2, 0.2, 0.175, 0.025]);
    close(averagingWeights(10), [0.05, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.05]);
  });

  it('reads a quantised voice-like sound at 10 kHz within 0.5 dB of Praat’s 10.4221 dB (cpps-synthetic.praat)', () => {
    const rate = 10_000;
    const voice = (t: number) =>
      0.5 * Math.sin(2 * Math.PI * 120 * t) +
      0.3 * Math.sin(2 * Math.PI * 240 * t + 1) +
      0.2 * Math.sin(2 * Math.PI * 360 * t + 2) +
      0.1 * Math.sin(2 * Math.PI * 1234.5 * t) +
      0.05 * Math.sin(12345 * t * t);
    const x = Float32Array.from(
      { length: rate },
      (_, i) => Math.round(32767 * voice((i + 0.5) / rate)) / 32768,
    );
    expect(Math.abs(cpps(x, rate)! - 10.4221)).toBeLessThan(0.5);
  });
});

describe('the peak in the search range', () => {
  it('is taken as it is when it lies on a slope at the edge of the range (no parabola through it)', () => {
    // A cepstrum falling almost linearly with quefrency: the highest point in 60–330 Hz is the range's
    // first bin, and a parabola through it and its neighbours has its vertex thousands of bins away.
    const rate = 10_000;
    const cepstrum = Float64Array.from({ length: 513 }, (_, q) => 60 - 0.05 * q - 1e-9 * q * q);
    const { quefrency, prominenceDb } = peakProminence(cepstrum, rate);
    expect(quefrency).toBeCloseTo(Math.ceil(rate / 330) / rate, 6);
    expect(Math.abs(prominenceDb)).toBeLessThan(0.01);
  });

  it('counts a frame of digital silence with prominence 0, as Praat does (expS: 9.40 alone, 4.90 with silence)', () => {
    // At 10 kHz, the analysis rate, so that no resampling filter spreads the voice into the silence.
    const rate = 10_000;
    const voice = Float32Array.from({ length: rate }, (_, i) => (i % 80 === 16 ? 0.8 : 0));
    const withSilence = new Float32Array(2 * rate);
    withSilence.set(voice);
    const alone = cpps(voice, rate)!;
    const diluted = cpps(withSilence, rate)!;
    expect(diluted).toBeGreaterThan(0.4 * alone);
    expect(diluted).toBeLessThan(0.6 * alone);
  });
});
