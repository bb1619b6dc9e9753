/**
 * The sandbox counts speech with the estimate the import trusts (Silero VAD, main/audio/file-speech.ts),
 * not with a stricter count of its own: a recording the import accepts is not refused as SpeechTooShort.
 * The recording here is speech cut by pauses of 0.6 s (a speaker's turn, as in the AMI meeting clips the
 * sandbox used to refuse): the energy count of the shared probe leaves the pauses out and stays under the
 * 30-s minimum; the import's estimate counts a pause inside a turn as speech, as the reference turns do.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeAudio } from '../../../main/audio/probe';
import { parseWavHeader } from '../../../main/audio/wav';
import { measureWavBytesSpeech } from '../../../main/audio/file-speech';
import { LIMITS } from '../../../shared/api/vocabulary';
import { encodeWav, makeSpeechLikeSignal } from '../../fixtures/audio';
import { createAccount, KEYS, startTestSandbox, upload, type TestSandbox } from './helpers';

const RATE = 16_000;

/** 26 s of speech in pieces of 1.2 s, each followed by 0.6 s of the background (39 s in all). */
const speechWithShortPauses = (): Uint8Array => {
  const speech = makeSpeechLikeSignal({ seconds: 26, speechSeconds: 26, sampleRateHz: RATE, seed: 3 });
  const background = makeSpeechLikeSignal({ seconds: 60, speechSeconds: 0, sampleRateHz: RATE, seed: 4 });
  const piece = Math.round(1.2 * RATE);
  const pause = Math.round(0.6 * RATE);
  const out = new Float32Array(speech.length + Math.ceil(speech.length / piece) * pause);
  let at = 0;
  for (let i = 0, k = 0; i < speech.length; i += piece, k++) {
    const p = speech.subarray(i, Math.min(speech.length, i + piece));
    out.set(p, at);
    at += p.length;
    out.set(background.subarray(k * pause, (k + 1) * pause), at);
    at += pause;
  }
  return encodeWav([out.subarray(0, at)], { sampleRateHz: RATE, format: 'pcm16' });
};

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(async () => {
  await t.sb.close();
});

describe("the sandbox's speech count is the import's", () => {
  it('a recording the import accepts (speech >= 30 s by its estimate) is accepted, with that speech time', async () => {
    const audio = speechWithShortPauses();
    const info = parseWavHeader(audio);
    if (!info.ok) throw new Error(info.error.detail);
    const imports = (await measureWavBytesSpeech(audio, info.value)).speechSeconds;
    expect(imports).toBeGreaterThanOrEqual(LIMITS.minSpeechSeconds);
    // The count the sandbox used before (the probe's energy estimate) would have refused it.
    const energy = await probeAudio(audio);
    expect(energy.ok && energy.value.speechSeconds).toBeLessThan(LIMITS.minSpeechSeconds);

    const account = await createAccount(t.sb);
    const a = await upload(t.sb, 'v1.3', KEYS.active, audio, { account_id: account });
    expect(a.status, a.text).toBe(200);
    expect((a.json as { speech_duration_seconds: number }).speech_duration_seconds).toBeCloseTo(imports, 6);
  }, 120_000);
});
