import { describe, expect, it } from 'vitest';
import {
  createSpeechEstimator,
  DEFAULT_SPEECH_OPTIONS,
  estimateSpeech,
  estimateWavSpeech,
  type SpeechEstimate,
} from '../../../main/audio/speech-estimate';
import { parseWavHeader, type WavInfo } from '../../../main/audio/wav';
import { encodeWav, makeSpeechLikeSignal, makeWav, planSpeech, seededRandom } from '../../fixtures/audio';

const RATES = [8_000, 16_000, 44_100, 48_000] as const;

const info = (bytes: Uint8Array): WavInfo => {
  const r = parseWavHeader(bytes);
  if (!r.ok) throw new Error(r.error.detail);
  return r.value;
};

/** Uniform white noise of the given RMS level. */
const noise = (seconds: number, sr: number, dbfs: number, seed = 1): Float32Array => {
  const rnd = seededRandom(seed);
  const a = 10 ** (dbfs / 20) * Math.sqrt(3);
  return Float32Array.from({ length: Math.round(seconds * sr) }, () => a * (2 * rnd() - 1));
};

/** Adds a sine of peak level `dbfs` to `x` over [from, to) seconds. */
const addTone = (
  x: Float32Array,
  sr: number,
  from: number,
  to: number,
  dbfs: number,
  hz = 440,
): Float32Array => {
  const a = 10 ** (dbfs / 20);
  for (let i = Math.round(from * sr); i < Math.round(to * sr); i++)
    x[i] = x[i]! + a * Math.sin((2 * Math.PI * hz * i) / sr);
  return x;
};

describe('the generated speech-like signal', () => {
  it('lays out phrases of 1–4 s and pauses of 0.3–1.5 s adding up to the requested speech', () => {
    for (const [seconds, speechSeconds] of [
      [60, 40],
      [60, 25],
      [45, 40],
      [120, 80],
    ] as const) {
      for (const seed of [1, 2, 3]) {
        const spans = planSpeech({ seconds, speechSeconds, sampleRateHz: 16_000, seed });
        const total = spans.reduce((s, p) => s + p.end - p.start, 0) / 16_000;
        expect(total).toBeCloseTo(speechSeconds, 3);
        for (const [i, p] of spans.entries()) {
          expect((p.end - p.start) / 16_000).toBeGreaterThanOrEqual(0.9999);
          expect((p.end - p.start) / 16_000).toBeLessThanOrEqual(4.0001);
          const gap = (p.start - (spans[i - 1]?.end ?? 0)) / 16_000;
          if (i > 0) {
            expect(gap).toBeGreaterThanOrEqual(0.2999);
            expect(gap).toBeLessThanOrEqual(1.5001);
          }
        }
      }
    }
  });

  it('is deterministic for a seed and different between seeds', () => {
    const a = makeSpeechLikeSignal({ seconds: 5, speechSeconds: 3, sampleRateHz: 8_000, seed: 4 });
    expect(makeSpeechLikeSignal({ seconds: 5, speechSeconds: 3, sampleRateHz: 8_000, seed: 4 })).toEqual(a);
    expect(makeSpeechLikeSignal({ seconds: 5, speechSeconds: 3, sampleRateHz: 8_000, seed: 5 })).not.toEqual(
      a,
    );
    expect(Math.max(...a.map(Math.abs))).toBeLessThan(0.5);
  });
});

describe('estimateSpeech', () => {
  it('pure digital silence has no speech', () => {
    const e = estimateSpeech(new Float32Array(10 * 16_000), 16_000);
    expect(e).toEqual({
      speechSeconds: 0,
      totalSeconds: 10,
      speechRatio: 0,
      frames: 1_000,
      speechFrames: 0,
      noiseFloorDb: -128,
      thresholdDb: -50,
    });
  });

  it('background noise at -60 dBFS has no speech, and the floor is found at -60 dBFS', () => {
    for (const sr of RATES) {
      const e = estimateSpeech(noise(20, sr, -60), sr);
      expect(e.speechSeconds).toBe(0);
      expect(Math.abs(e.noiseFloorDb + 60)).toBeLessThan(1);
      expect(e.thresholdDb).toBe(-50);
    }
  });

  it('measures generated speech within ±10 % at 8, 16, 44.1 and 48 kHz', () => {
    for (const sr of RATES) {
      for (const [seconds, speechSeconds, seed] of [
        [60, 40, 1],
        [60, 25, 2],
        [45, 40, 3],
        [36, 33, 4],
        [90, 30, 5],
      ] as const) {
        const e = estimateSpeech(
          makeSpeechLikeSignal({ seconds, speechSeconds, sampleRateHz: sr, seed }),
          sr,
        );
        expect(e.totalSeconds).toBeCloseTo(seconds, 6);
        expect(
          Math.abs(e.speechSeconds - speechSeconds) / speechSeconds,
          `${sr} Hz, ${speechSeconds} of ${seconds} s, seed ${seed}: ${e.speechSeconds}`,
        ).toBeLessThan(0.1);
      }
    }
  });

  it('an empty recording is all zeros, without NaN', () => {
    expect(estimateSpeech(new Float32Array(0), 16_000)).toEqual({
      speechSeconds: 0,
      totalSeconds: 0,
      speechRatio: 0,
      frames: 0,
      speechFrames: 0,
      noiseFloorDb: -128,
      thresholdDb: -50,
    });
  });

  it('counts a partial last frame by its length', () => {
    const sr = 16_000;
    const x = addTone(noise((sr + 37) / sr, sr, -60), sr, 0.5, 2, -20);
    const e = estimateSpeech(x, sr);
    expect(e.frames).toBe(101);
    expect(e.totalSeconds).toBe((sr + 37) / sr);
    // Voiced from hop 49 (whose window reaches 0.5 s) to the partial last hop of 37 samples.
    expect(e.speechFrames).toBe(52);
    expect(e.speechSeconds).toBe((51 * 160 + 37) / sr);
  });

  it('a steady tone through the whole recording is the floor, not speech; a tone that comes and goes is counted (energy only)', () => {
    const sr = 16_000;
    const steady = estimateSpeech(addTone(noise(30, sr, -60), sr, 0, 30, -10), sr);
    expect(steady.speechSeconds).toBe(0);
    expect(steady.noiseFloorDb).toBeGreaterThan(-14);
    const bursts = addTone(
      addTone(addTone(noise(30, sr, -60), sr, 2, 6, -20), sr, 10, 12, -20),
      sr,
      20,
      27,
      -20,
    );
    expect(estimateSpeech(bursts, sr).speechSeconds).toBeCloseTo(13 + 3 * 0.02, 2); // each burst one hop wider at both edges
  });

  it('bridges gaps under 150 ms, keeps longer ones, and drops isolated blips under 60 ms', () => {
    const sr = 16_000;
    const two = (gap: number) =>
      estimateSpeech(addTone(addTone(noise(10, sr, -60), sr, 2, 3, -20), sr, 3 + gap, 4 + gap, -20), sr)
        .speechSeconds;
    expect(two(0.12)).toBeCloseTo(2.12 + 0.02, 2); // bridged (+ one hop at each outer edge)
    expect(two(0.2)).toBeCloseTo(2 + 0.04, 2); // two stretches, each one hop wider at both edges
    const blips = noise(10, sr, -60);
    for (const at of [1, 3, 5, 7]) addTone(blips, sr, at, at + 0.05, -10);
    expect(estimateSpeech(blips, sr).speechSeconds).toBe(0);
    const longer = addTone(noise(10, sr, -60), sr, 4, 4.08, -10);
    expect(estimateSpeech(longer, sr).speechSeconds).toBeCloseTo(0.1, 2);
  });

  it('threshold never below -50 dBFS, and 10 dB over a higher floor', () => {
    const sr = 16_000;
    const noisy = addTone(noise(30, sr, -35), sr, 5, 15, -20); // 10 s of tone 12 dB over the noise
    const e = estimateSpeech(noisy, sr);
    expect(Math.abs(e.noiseFloorDb + 35)).toBeLessThan(1);
    expect(e.thresholdDb).toBeCloseTo(e.noiseFloorDb + 10, 6);
    expect(e.speechSeconds).toBeCloseTo(10, 0);
    // Options move the rules.
    expect(estimateSpeech(noisy, sr, { marginDb: 20 }).speechSeconds).toBe(0);
    expect(estimateSpeech(noise(10, sr, -90), sr).thresholdDb).toBe(-50);
    expect(estimateSpeech(noise(10, sr, -90), sr, { minThresholdDb: -70 }).thresholdDb).toBe(-70);
  });

  it('the defaults are the documented ones', () =>
    expect(DEFAULT_SPEECH_OPTIONS).toEqual({
      frameMs: 30,
      hopMs: 10,
      noiseFloorPercentile: 5,
      marginDb: 10,
      minThresholdDb: -50,
      bridgeGapMs: 150,
      minSpeechMs: 60,
    }));

  it('refuses a sample rate that is not positive', () => {
    expect(() => createSpeechEstimator(0)).toThrow(RangeError);
    expect(() => createSpeechEstimator(Number.NaN)).toThrow(RangeError);
  });
});

describe('createSpeechEstimator (streaming)', () => {
  it('gives exactly the one-shot answer whatever the chunk sizes', () => {
    for (const sr of [8_000, 44_100]) {
      const x = makeSpeechLikeSignal({ seconds: 20, speechSeconds: 12, sampleRateHz: sr, seed: 11 });
      const whole = estimateSpeech(x, sr);
      const rnd = seededRandom(3);
      for (const sizes of [
        [1],
        [7],
        [997],
        [4_801],
        [sr],
        [Math.round(sr * 0.01) - 1, Math.round(sr * 0.01) + 1],
        null,
      ]) {
        const s = createSpeechEstimator(sr);
        let at = 0;
        let k = 0;
        while (at < x.length) {
          const n = sizes === null ? 1 + Math.floor(rnd() * 3_000) : sizes[k++ % sizes.length]!;
          s.push(x.subarray(at, at + n));
          at += n;
        }
        s.push(new Float32Array(0));
        expect(s.finish()).toEqual(whole);
      }
    }
  });

  it('finish is idempotent and closes the estimator', () => {
    const s = createSpeechEstimator(16_000);
    s.push(noise(1, 16_000, -60));
    const first: SpeechEstimate = s.finish();
    expect(s.finish()).toBe(first);
    expect(() => s.push(new Float32Array(10))).toThrow();
  });
});

describe('estimateWavSpeech', () => {
  it('25 s of speech in 60 s stays under 30 s, and 40 s is above 30 s, at 8, 16, 44.1 and 48 kHz', () => {
    for (const sr of RATES) {
      for (const seed of [1, 2]) {
        const little = makeWav({ seconds: 60, speechSeconds: 25, sampleRateHz: sr, seed });
        const plenty = makeWav({ seconds: 60, speechSeconds: 40, sampleRateHz: sr, seed });
        const a = estimateWavSpeech(little, info(little)).speechSeconds;
        const b = estimateWavSpeech(plenty, info(plenty)).speechSeconds;
        expect(a, `${sr} Hz seed ${seed}`).toBeLessThan(30);
        expect(b, `${sr} Hz seed ${seed}`).toBeGreaterThan(30);
        expect(Math.abs(a - 25)).toBeLessThan(2.5);
        expect(Math.abs(b - 40)).toBeLessThan(4);
      }
    }
  });

  it('matches the estimate of the decoded samples, for every encoding and for stereo', () => {
    const sr = 16_000;
    const x = makeSpeechLikeSignal({ seconds: 30, speechSeconds: 18, sampleRateHz: sr, seed: 6 });
    const reference = estimateSpeech(x, sr).speechSeconds;
    for (const format of [
      'pcm8',
      'pcm16',
      'pcm24',
      'pcm32',
      'float32',
      'float64',
      'extensible-pcm16',
      'extensible-float32',
    ] as const) {
      const wav = encodeWav([x], { sampleRateHz: sr, format });
      expect(Math.abs(estimateWavSpeech(wav, info(wav)).speechSeconds - reference), format).toBeLessThan(0.1);
    }
    const stereo = makeWav({ seconds: 30, speechSeconds: 18, sampleRateHz: sr, channels: 2, seed: 6 });
    expect(Math.abs(estimateWavSpeech(stereo, info(stereo)).speechSeconds - reference)).toBeLessThan(0.1);
  });

  it('reads what is there of a truncated file', () => {
    const wav = makeWav({ seconds: 30, speechSeconds: 20, sampleRateHz: 16_000, seed: 2 });
    const cut = wav.subarray(0, Math.floor(wav.length / 2) + 1);
    const i = info(cut);
    expect(i.truncated).toBe(true);
    const e = estimateWavSpeech(cut, i);
    expect(e.totalSeconds).toBeCloseTo(i.durationSeconds, 6);
    expect(e.speechSeconds).toBeGreaterThan(5);
    expect(e.speechSeconds).toBeLessThan(15);
  });
});
