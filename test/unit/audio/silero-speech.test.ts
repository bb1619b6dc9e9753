import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  estimateSileroSpeech,
  speechFromProbabilities,
  speechSegmentsFromProbabilities,
} from '../../../main/audio/silero-speech';
import { makeSpeechLikeSignal } from '../../fixtures/audio';
import { summarise, validateSpeechEstimate } from '../../../scripts/validation/speech-estimate';

const RATE = 16_000;
const corpus = process.env['VOICESCOPE_CORPUS'] ?? '/work/corpus';
const hasCorpus = existsSync(join(corpus, 'pyannote', 'sample.rttm'));

describe('the speech estimate (Silero VAD, calibrated against speaker turns)', () => {
  it('a file without speech reads 0 s: digital silence, and silence with a steady tone', async () => {
    expect((await estimateSileroSpeech(new Float32Array(RATE * 20), RATE)).speechSeconds).toBe(0);
    const tone = new Float32Array(RATE * 20).map((_, i) => 0.3 * Math.sin((2 * Math.PI * 440 * i) / RATE));
    expect((await estimateSileroSpeech(tone, RATE)).speechSeconds).toBe(0);
  });

  it('14 s of inserted silence adds at most 1 s', async () => {
    const speech = makeSpeechLikeSignal({ seconds: 30, speechSeconds: 24, sampleRateHz: RATE, seed: 7 });
    const half = 15 * RATE;
    const longer = new Float32Array(speech.length + 14 * RATE);
    longer.set(speech.subarray(0, half));
    longer.set(speech.subarray(half), half + 14 * RATE);
    const a = (await estimateSileroSpeech(speech, RATE)).speechSeconds;
    const b = (await estimateSileroSpeech(longer, RATE)).speechSeconds;
    expect(a).toBeGreaterThan(20);
    expect(b - a).toBeLessThanOrEqual(1);
  });

  it('pauses shorter than 0.8 s inside speech count as speech; longer ones do not', () => {
    const f = 0.096;
    const p = (pattern: string) => [...pattern].map((c) => (c === '1' ? 0.9 : 0.05));
    // two 0.96 s stretches with a 0.48 s pause: one stretch plus padding
    expect(
      speechFromProbabilities(p('0'.repeat(20) + '1111111111' + '00000' + '1111111111'), 60),
    ).toBeCloseTo(25 * f + 0.2, 3);
    // with a 1.92 s pause: two stretches, each padded
    expect(
      speechFromProbabilities(p('0'.repeat(20) + '1111111111' + '0'.repeat(20) + '1111111111'), 60),
    ).toBeCloseTo(20 * f + 0.4, 3);
  });

  it('gives the speech stretches it counts: the same padding and bridging, and they add up to the estimate', () => {
    const f = 0.096;
    const p = (pattern: string) => [...pattern].map((c) => (c === '1' ? 0.9 : 0.05));
    const probs = p('0'.repeat(20) + '1111111111' + '0'.repeat(20) + '1111111111' + '00000' + '11111');
    const segments = speechSegmentsFromProbabilities(probs, 60);
    expect(segments).toHaveLength(2);
    expect(segments[0]!.start).toBeCloseTo(20 * f - 0.1, 6);
    expect(segments[0]!.end).toBeCloseTo(30 * f + 0.1, 6);
    expect(segments[1]!.start).toBeCloseTo(50 * f - 0.1, 6);
    expect(segments[1]!.end).toBeCloseTo(70 * f + 0.1, 6); // the 0.48 s pause is bridged
    const sum = segments.reduce((t, s) => t + s.end - s.start, 0);
    expect(speechFromProbabilities(probs, 60)).toBeCloseTo(sum, 9);
  });

  it.skipIf(!hasCorpus)(
    `meets its targets on the AMI meeting clips with RTTM turns (${hasCorpus ? corpus : 'corpus absent: set VOICESCOPE_CORPUS or run scripts/validation/fetch-speech-corpus.sh'})`,
    async () => {
      const s = summarise(await validateSpeechEstimate(corpus));
      expect(s.clips).toBe(14);
      expect(s.maeSeconds).toBeLessThanOrEqual(2);
      expect(Math.abs(s.meanSignedSeconds)).toBeLessThanOrEqual(1);
      expect(s.refusedWithEnough).toBe(0);
      expect(s.acceptedWithTooLittle).toBe(0);
    },
    120_000,
  );
});
