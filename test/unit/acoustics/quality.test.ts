/**
 * The recording quality verdict, rule by rule (main/acoustics/quality.ts): good when nothing is to note;
 * usable with some noise, some clipping, a quiet peak, a DC offset or long silences; poor when noisy,
 * clipped, too short or silent throughout. Every reason says what was found.
 */
import { describe, expect, it } from 'vitest';
import { assessQuality, QUALITY_THRESHOLDS as T } from '../../../main/acoustics/quality';

const fs = 16000;

/** Noise-like steady signal (a fixed pseudo-random sequence) of RMS `rms`. */
const noise = (n: number, rms: number, seed = 7): Float32Array => {
  let s = seed;
  const x = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    x[i] = (s / 2 ** 31 - 0.5) * Math.sqrt(12) * rms;
  }
  return x;
};

/** One second of noise alone, then `seconds` of a 200 Hz tone over the same noise: SNR about `snrDb`. */
const toneOverNoise = (snrDb: number, seconds = 3, amplitude = 0.3): Float32Array => {
  const toneRms = amplitude / Math.SQRT2;
  const n = noise((seconds + 1) * fs, toneRms / 10 ** (snrDb / 20));
  for (let i = fs; i < n.length; i++) n[i] = n[i]! + amplitude * Math.sin((2 * Math.PI * 200 * i) / fs);
  return n;
};

describe('recording quality verdict', () => {
  it('a clean, well-levelled recording is good, with no reason', () => {
    const q = assessQuality(toneOverNoise(45), fs);
    expect(q).toMatchObject({ verdict: 'good', reasons: [], longSilences: 0 });
    expect(q.snrDb!).toBeGreaterThan(T.usableSnrDb);
    expect(q.peakDbfs!).toBeCloseTo(20 * Math.log10(0.3), 0);
  });

  it(`some noise (SNR between ${T.poorSnrDb} and ${T.usableSnrDb} dB) makes it usable`, () => {
    const q = assessQuality(toneOverNoise(15), fs);
    expect(q.verdict).toBe('usable');
    expect(q.reasons).toEqual([expect.stringMatching(/^some noise: SNR about 1\d\.\d dB$/)]);
  });

  it(`noise (SNR below ${T.poorSnrDb} dB) makes it poor`, () => {
    const q = assessQuality(toneOverNoise(4), fs);
    expect(q.verdict).toBe('poor');
    expect(q.reasons[0]).toMatch(/^noisy: SNR about/);
  });

  it('some clipping makes it usable, much clipping poor, each with the share of clipped samples', () => {
    const x = toneOverNoise(45);
    const some = x.slice();
    for (let i = fs; i < fs + Math.ceil(some.length * T.usableClipping * 2); i++) some[i] = 1;
    const a = assessQuality(some, fs);
    expect(a.verdict).toBe('usable');
    expect(a.reasons.join()).toMatch(/some clipping: 0\.\d\d % of samples/);
    const hard = x.map((v) => Math.max(-1, Math.min(1, v * 20)));
    const b = assessQuality(hard, fs);
    expect(b.verdict).toBe('poor');
    expect(b.clippingRatio).toBeGreaterThanOrEqual(T.poorClipping);
    expect(b.reasons.join()).toMatch(/clipped: \d+\.\d\d % of samples/);
  });

  it(`a peak below ${T.quietPeakDbfs} dBFS is very quiet: usable`, () => {
    const q = assessQuality(toneOverNoise(45, 3, 0.01), fs);
    expect(q.verdict).toBe('usable');
    expect(q.reasons).toEqual([expect.stringMatching(/^very quiet: peak -\d\d\.\d dBFS$/)]);
  });

  it('a DC offset is named and makes it usable', () => {
    const q = assessQuality(
      toneOverNoise(45).map((v) => v + 0.05),
      fs,
    );
    expect(q.dcOffset).toBeCloseTo(0.05, 3);
    expect(q.verdict).toBe('usable');
    expect(q.reasons).toContain('DC offset 0.050');
  });

  it(`digital silence is named, with its length and the measures it distorts, and makes it usable`, () => {
    const x = new Float32Array(9 * fs);
    const tone = toneOverNoise(60, 2);
    x.set(tone, 0);
    x.set(tone, 6 * fs);
    const q = assessQuality(x, fs);
    expect(q.longSilences).toBe(1);
    expect(q.longSilenceSeconds).toBeGreaterThanOrEqual(2);
    expect(q.verdict).toBe('usable');
    expect(q.reasons).toEqual([
      'digital silence (samples exactly zero, a gap or an edit in the file): 1 stretch(es), 3.0 s in all; it distorts Intensity SD, Mean intensity, Pauses, Mean pause duration, Pause duration SD, Phonation ratio, and the SNR may read too high',
    ]);
  });

  it(`a quiet gap of ${T.longSilenceSeconds} s or more without speech is named with the measures it counts in`, () => {
    const x = toneOverNoise(60, 8);
    // 3 s of the background noise alone between two stretches of tone.
    const quiet = noise(3 * fs, 0.3 / Math.SQRT2 / 10 ** 3);
    x.set(quiet, 3 * fs);
    const q = assessQuality(x, fs);
    expect(q.verdict).toBe('usable');
    expect(q.longSilences).toBe(1);
    expect(q.reasons).toEqual([
      expect.stringMatching(
        /^1 quiet gap\(s\) of 2 s or more without speech \(3\.0 s in all\); they count in Pauses, Mean pause duration, Pause duration SD, Phonation ratio, Intensity SD$/,
      ),
    ]);
    expect(q.reasons.join()).not.toMatch(/digital silence/);
  });

  it(`shorter than ${T.minSeconds} s, or digital silence throughout, is poor`, () => {
    expect(assessQuality(toneOverNoise(45).subarray(0, fs / 2), fs)).toMatchObject({
      verdict: 'poor',
      reasons: expect.arrayContaining([`shorter than ${T.minSeconds} s`]),
    });
    const silent = assessQuality(new Float32Array(3 * fs), fs);
    expect(silent.verdict).toBe('poor');
    expect(silent.reasons).toContain('digital silence throughout');
    expect(silent.peakDbfs).toBeNull();
  });

  it('poor reasons come before usable ones', () => {
    const x = toneOverNoise(4).map((v) => v + 0.05);
    const q = assessQuality(x, fs);
    expect(q.verdict).toBe('poor');
    expect(q.reasons[0]).toMatch(/^noisy/);
    expect(q.reasons.at(-1)).toMatch(/^DC offset/);
  });
});
