/**
 * The functions written from published descriptions, held to the values their descriptions give and to
 * the values measured on Praat where the descriptions are silent (scripts/validation/experiments/,
 * docs/acoustics.md). Each measured number below was printed by Praat 6.3.07 running the named script.
 */
import { describe, expect, it } from 'vitest';

import {
  hnrDbFromCorrelation,
  meanHnr,
  toHarmonicity,
  UNVOICED_HNR_DB,
} from '../../../main/acoustics/harmonicity';
import { interpolateSinc } from '../../../main/acoustics/interpolation';
import { pitchDefaults, toPitch } from '../../../main/acoustics/pitch';
import { toPointProcess } from '../../../main/acoustics/point-process';
import { amplitudeAtPulse, shimmerLocal } from '../../../main/acoustics/voice';
import { vowel } from '../../../scripts/validation/synthetic';

describe('band-limited interpolation (vector value interpolation; sinc-values.praat)', () => {
  // sin(k²·0.37)/2 for k = 0..299, read by Praat's "Get value at time" at real sample indices.
  const samples = Array.from({ length: 300 }, (_, k) => Math.sin(k * k * 0.37) * 0.5);
  const praat: [index: number, depth: number, value: number][] = [
    [150.13, 70, -0.205165445433336],
    [150.52, 70, -0.417644624392064],
    [150.78, 70, -0.473726631135575],
    [150.13, 700, -0.195431334990434],
    [150.52, 700, -0.392915089381321],
    [150.78, 700, -0.45781820984575],
    [13.3, 70, -0.215135333650386],
    [28.3, 700, 0.267040963315515],
    [285.6, 70, -0.057026282828216],
    [1.3, 70, 0.294552335581337],
    [297.6, 700, 0.294485346318752],
    [0.51, 70, 0.092211935151065],
    [298.53, 700, -0.036884463175868],
  ];

  it.each(praat)('at index %f with depth %i gives Praat’s value', (index, depth, value) => {
    expect(interpolateSinc(samples, index, depth)).toBeCloseTo(value, 12);
  });

  it('returns the samples themselves at whole indices and the end values beyond the ends', () => {
    expect(interpolateSinc(samples, 42, 70)).toBe(samples[42]);
    expect(interpolateSinc(samples, -3, 70)).toBe(samples[0]);
    expect(interpolateSinc(samples, 400, 70)).toBe(samples[299]);
  });

  it('reconstructs a slow sine between its samples', () => {
    const sine = Array.from({ length: 2000 }, (_, k) => Math.sin(0.05 * k));
    for (const x of [500.25, 1000.5, 1499.9])
      expect(interpolateSinc(sine, x, 700)).toBeCloseTo(Math.sin(0.05 * x), 4);
  });
});

describe('harmonics-to-noise ratio (Boersma 1993, eq. 4; hnr-limits.praat)', () => {
  it('is 10·log10(r / (1 − r))', () => {
    expect(hnrDbFromCorrelation(0.5)).toBeCloseTo(0, 12);
    expect(hnrDbFromCorrelation(0.99)).toBeCloseTo(10 * Math.log10(99), 12);
    expect(hnrDbFromCorrelation(0.1)).toBeCloseTo(10 * Math.log10(1 / 9), 12);
  });

  it('stays finite at r = 1 and r = 0', () => {
    expect(Number.isFinite(hnrDbFromCorrelation(1))).toBe(true);
    expect(Number.isFinite(hnrDbFromCorrelation(0))).toBe(true);
    expect(hnrDbFromCorrelation(1)).toBeGreaterThan(150);
  });

  it('reads digital silence as −200 dB, as Praat does, and leaves it out of the mean', () => {
    const fs = 16000;
    const silent = toHarmonicity(new Float32Array(0.3 * fs), fs);
    expect(silent.length).toBeGreaterThan(20);
    for (const v of silent) expect(v).toBe(UNVOICED_HNR_DB);
    expect(meanHnr(silent)).toBeNull();
  });

  it('reads a 200 Hz sine at about 105.6 dB, as Praat does', () => {
    const fs = 16000;
    const x = Float32Array.from(
      { length: 0.3 * fs },
      (_, k) => 0.5 * Math.sin((2 * Math.PI * 200 * (k + 0.5)) / fs),
    );
    // Praat: 105.628-105.629 dB in every frame on a double-precision sine; float32 samples read a little lower.
    expect(meanHnr(toHarmonicity(x, fs))!).toBeGreaterThan(60);
  });
});

describe('amplitude at a pulse (amplitude-window.praat)', () => {
  const fs = 44100;
  const click = (at: number): Float32Array => {
    const x = new Float32Array(0.3 * fs);
    x[Math.round(at * fs)] = 1;
    return x;
  };

  it('reads a lone click at the pulse as Praat does (10 ms periods: 0.122942)', () => {
    // Praat's sample col sits at (col − 0.5)/fs: the click of its script is the one at index round(t·fs) − 1.
    const x = new Float32Array(0.3 * fs);
    x[Math.round(0.15 * fs) - 1] = 1;
    expect(amplitudeAtPulse(x, fs, 0.15, 0.01, 0.01)!).toBeCloseTo(0.122942103, 5);
  });

  it('reaches 0.2 of the period before the pulse to the left and of the period after it to the right', () => {
    expect(amplitudeAtPulse(click(0.15 - 0.0021), fs, 0.15, 0.01, 0.012)).toBeNull();
    expect(amplitudeAtPulse(click(0.15 + 0.0023), fs, 0.15, 0.01, 0.012)).not.toBeNull();
    expect(amplitudeAtPulse(click(0.15 + 0.0025), fs, 0.15, 0.01, 0.012)).toBeNull();
  });

  it('reads a steady tone as its RMS', () => {
    const x = Float32Array.from(
      { length: 0.3 * fs },
      (_, k) => 0.8 * Math.sin((2 * Math.PI * 3000 * k) / fs),
    );
    expect(amplitudeAtPulse(x, fs, 0.15, 0.01, 0.01)!).toBeCloseTo(0.8 / Math.SQRT2, 2);
  });
});

describe('shimmer (local) (Voice 3. Shimmer; shimmer-rules.praat)', () => {
  it('gives Praat’s 18.4297 % on pulses with a gap and an amplitude jump', () => {
    const fs = 16000;
    const pulses: number[] = [];
    for (let t = 0.05, k = 1; t < 0.45 - 1e-12; k++) {
      pulses.push(t);
      t += k === 15 ? 0.03 : 0.01;
    }
    const x = new Float32Array(0.5 * fs);
    pulses.forEach((pulse, j) => {
      const i = j + 1;
      const level = (0.6 + 0.3 * (i * 0.618 - Math.floor(i * 0.618))) * (i === 25 ? 3 : 1);
      for (let n = 0; n < x.length; n++) {
        const t = (n + 0.5) / fs;
        if (t >= pulse - 0.005 && t <= pulse + 0.005) x[n] = level * Math.sin(2 * Math.PI * 2000 * t);
      }
    });
    expect(shimmerLocal(x, fs, Float64Array.from(pulses)).local!).toBeCloseTo(0.184297444, 6);
  });
});

describe('glottal pulses (Sound & Pitch: To PointProcess (cc))', () => {
  it('puts one pulse per period of a steady vowel, a period apart', () => {
    const fs = 16000;
    const x = vowel({ seconds: 1, sampleRate: fs, f0: () => 125 });
    const pulses = toPointProcess(x, fs, toPitch(x, fs, pitchDefaults('ac', 75, 500)));
    expect(pulses.length).toBeGreaterThan(110);
    for (let i = 1; i < pulses.length; i++) expect(pulses[i]! - pulses[i - 1]!).toBeCloseTo(0.008, 4);
  });

  it('finds no pulses in silence', () => {
    const fs = 16000;
    const x = new Float32Array(fs);
    expect(toPointProcess(x, fs, toPitch(x, fs, pitchDefaults('ac', 75, 500))).length).toBe(0);
  });
});
