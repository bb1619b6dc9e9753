import { describe, expect, it } from 'vitest';

import { toFormants } from '../../../main/acoustics/formants';
import { meanHnr, toHarmonicity } from '../../../main/acoustics/harmonicity';
import { energyMeanDb, toIntensity } from '../../../main/acoustics/intensity';
import { measureSamples } from '../../../main/acoustics/measure';
import { MEASURE_KEYS, MEASURES } from '../../../main/acoustics/measures';
import { pitchDefaults, toPitch } from '../../../main/acoustics/pitch';
import { assessQuality } from '../../../main/acoustics/quality';
import { findSilences, summarisePauses } from '../../../main/acoustics/silences';
import { jitterLocal, shimmerLocal } from '../../../main/acoustics/voice';
import { expectedLocalPct, seeded, vowel } from '../../../scripts/validation/synthetic';

const fs = 16000;
const voicedF0 = (x: Float32Array, floor = 75, ceiling = 500): number[] =>
  Array.from(toPitch(x, fs, pitchDefaults('cc', floor, ceiling)).f0).filter((f) => f > 0);

describe('pitch (cc, Boersma 1993 with the path finder)', () => {
  it('finds the F0 of a vowel to within a fraction of a hertz, in every frame', () => {
    const f0 = voicedF0(vowel({ seconds: 0.6, sampleRate: fs, f0: () => 137 }));
    expect(f0.length).toBeGreaterThan(150);
    for (const f of f0) expect(Math.abs(f - 137)).toBeLessThan(1);
  });

  it('follows a glide across an octave without octave jumps', () => {
    const x = vowel({ seconds: 1, sampleRate: fs, f0: (t) => 100 * 2 ** t });
    const track = toPitch(x, fs, pitchDefaults('cc', 75, 500));
    for (let i = 0; i < track.grid.count; i++) {
      const f = track.f0[i]!;
      if (f === 0) continue;
      const t = track.grid.firstTime + i * track.grid.step;
      expect(Math.abs(1200 * Math.log2(f / (100 * 2 ** t)))).toBeLessThan(50);
    }
  });

  it('calls silence and white noise unvoiced', () => {
    const rand = seeded(3);
    const x = new Float32Array(fs);
    for (let i = fs / 2; i < fs; i++) x[i] = 0.3 * (rand() - 0.5);
    expect(voicedF0(x).length).toBe(0);
  });

  it('keeps to the pitch range it is given', () => {
    const f0 = voicedF0(vowel({ seconds: 0.5, sampleRate: fs, f0: () => 220 }), 100, 180);
    for (const f of f0) expect(f).toBeLessThanOrEqual(180);
  });
});

describe('jitter and shimmer (Praat manual definitions)', () => {
  it('jitter (local) is the mean absolute period difference over the mean period', () => {
    // periods 10, 11, 10, 11 ms: differences all 1 ms, mean period 10.5 ms
    const pts = Float64Array.from([0, 0.01, 0.021, 0.031, 0.042]);
    expect(jitterLocal(pts)! * 100).toBeCloseTo((1 / 10.5) * 100, 6);
  });

  it('jitter ignores periods longer than the period ceiling and pairs beyond the period factor', () => {
    const pts = Float64Array.from([0, 0.01, 0.02, 0.1, 0.11, 0.12]);
    expect(jitterLocal(pts)).toBeCloseTo(0, 9);
    expect(jitterLocal(Float64Array.from([0, 0.005, 0.015]))).toBeNull();
  });

  it('shimmer (local) compares the RMS amplitudes around consecutive pulses, over every amplitude but the last', () => {
    // The amplitude at a pulse is the Hann-windowed RMS over 0.2 period each side: a signal that is
    // constant there reads that constant.
    const pts = Float64Array.from([0, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06]);
    const x = new Float32Array(Math.round(0.07 * fs));
    [1, 0.8, 1, 0.8, 1].forEach((a, i) => {
      const centre = 0.01 * (i + 1) * fs;
      for (let k = Math.round(centre - 0.003 * fs); k <= Math.round(centre + 0.003 * fs); k++) x[k] = a;
    });
    const s = shimmerLocal(x, fs, pts);
    expect(s.local! * 100).toBeCloseTo((0.2 / 0.9) * 100, 4);
    expect(s.localDb!).toBeCloseTo(20 * Math.log10(1 / 0.8), 4);
  });

  it('reads set jitter and shimmer from synthetic vowels within a quarter of the built value', () => {
    const j = measureSamples(
      vowel({ seconds: 1.5, sampleRate: fs, f0: () => 120, periodSd: 0.02, seed: 5 }),
      fs,
    );
    expect(j.measures.jitter_local_pct!).toBeGreaterThan(expectedLocalPct(0.02) * 0.7);
    expect(j.measures.jitter_local_pct!).toBeLessThan(expectedLocalPct(0.02) * 1.25);
    const clean = measureSamples(vowel({ seconds: 1.5, sampleRate: fs, f0: () => 120, seed: 5 }), fs);
    expect(clean.measures.jitter_local_pct!).toBeLessThan(0.1);
    expect(clean.measures.shimmer_local_pct!).toBeLessThan(0.5);
  }, 20_000);
});

describe('harmonicity, intensity, formants', () => {
  it('reads the HNR a vowel was built with to within 0.5 dB', () => {
    for (const hnr of [5, 15]) {
      const x = vowel({ seconds: 1, sampleRate: fs, f0: () => 150, hnrDb: hnr, seed: hnr });
      expect(Math.abs(meanHnr(toHarmonicity(x, fs))! - hnr)).toBeLessThan(0.5);
    }
  });

  it('gives a sine of amplitude A an intensity of 10·log10(A²/2 / 4e-10) dB', () => {
    const x = new Float32Array(fs);
    for (let i = 0; i < fs; i++) x[i] = 0.1 * Math.sin((2 * Math.PI * 440 * i) / fs);
    const { db } = toIntensity(x, fs);
    expect(energyMeanDb(db)!).toBeCloseTo(10 * Math.log10(0.005 / 4e-10), 2);
  });

  it('finds the formants a vowel was built with', () => {
    const x = vowel({
      seconds: 0.5,
      sampleRate: fs,
      f0: () => 110,
      formants: [
        [500, 60],
        [1500, 80],
        [2500, 100],
      ],
    });
    const frames = toFormants(x, fs).slice(5, -5);
    // LPC may add a pole for the source's spectral tilt below F1 (Praat's does too): look for each
    // built formant among the frame's formants.
    for (const target of [500, 1500, 2500]) {
      const errors = frames
        .map((f) => Math.min(...f.map((v) => Math.abs(v - target) / target)))
        .sort((a, b) => a - b);
      expect(errors[errors.length >> 1]!).toBeLessThan(0.06); // LPC leans towards nearby harmonics
    }
  });
});

describe('pauses (To TextGrid (silences))', () => {
  it('finds one pause between two stretches of sound, and not the silence around them', () => {
    const a = vowel({ seconds: 1, sampleRate: fs, f0: () => 120 });
    const x = new Float32Array(Math.round(3.1 * fs));
    x.set(a, Math.round(0.3 * fs));
    x.set(a, Math.round(1.8 * fs));
    const p = summarisePauses(findSilences(x, fs));
    expect(p.pauseCount).toBe(1);
    expect(Math.abs(p.pauseMean! - 0.5)).toBeLessThan(0.05);
    expect(Math.abs(p.speechSeconds - 2)).toBeLessThan(0.1);
  });
});

describe('recording quality control', () => {
  it('calls a clean recording good and a clipped one poor, with the reason', () => {
    const clean = vowel({ seconds: 2, sampleRate: fs, f0: () => 120, hnrDb: 30 });
    const x = new Float32Array(3 * fs);
    x.set(clean, fs / 2);
    const rand = seeded(9);
    for (let i = 0; i < x.length; i++) x[i] = x[i]! + 0.0003 * (rand() - 0.5);
    expect(assessQuality(x, fs).verdict).toBe('good');
    const clipped = x.map((v) => Math.max(-1, Math.min(1, v * 8)));
    const q = assessQuality(clipped, fs);
    expect(q.verdict).toBe('poor');
    expect(q.reasons.join(' ')).toMatch(/clipped/);
  });

  it('flags noise, DC offset and long silences', () => {
    const rand = seeded(4);
    const x = vowel({ seconds: 2, sampleRate: fs, f0: () => 120 }).map(
      (v) => v + 0.3 * (rand() - 0.5) + 0.05,
    );
    const q = assessQuality(x, fs);
    expect(q.verdict).toBe('poor');
    expect(q.reasons.join(' ')).toMatch(/noisy/);
    expect(q.reasons.join(' ')).toMatch(/DC offset/);
    const gap = new Float32Array(6 * fs);
    gap.set(vowel({ seconds: 1, sampleRate: fs, f0: () => 120 }));
    gap.set(vowel({ seconds: 1, sampleRate: fs, f0: () => 120 }), 5 * fs);
    expect(assessQuality(gap, fs).longSilences).toBe(1);
  });
});

describe('measureSamples', () => {
  it('returns every key of the vocabulary, with the settings and the engine', () => {
    const r = measureSamples(vowel({ seconds: 1, sampleRate: fs, f0: () => 150 }), fs, {
      pitchFloor: 100,
      pitchCeiling: 300,
    });
    expect(Object.keys(r.measures).sort()).toEqual([...MEASURE_KEYS].sort());
    expect(Math.abs(r.measures.f0_mean_hz! - 150)).toBeLessThan(0.5);
    expect(r.settings).toEqual({ pitchFloor: 100, pitchCeiling: 300 });
    expect(r.engine.name).toBe('voicescope-acoustics');
    for (const k of MEASURE_KEYS) expect(MEASURES[k].unit.length).toBeGreaterThan(0);
  });
});
