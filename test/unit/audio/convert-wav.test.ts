import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { convertWavToMono16k } from '../../../main/audio/convert-wav';
import { probeAudio } from '../../../main/audio/probe';
import { parseWavHeader, readMonoSamples } from '../../../main/audio/wav';
import { judgeAudio } from '../../../main/import/local-verdict';
import { encodeWav, makeSpeechLikeSignal, makeWav } from '../../fixtures/audio';

const header = (bytes: Uint8Array) => {
  const h = parseWavHeader(bytes);
  if (!h.ok) throw new Error(h.error.detail);
  return h.value;
};

describe('WAV conversion (stereo to mono, resampling to 16 kHz)', () => {
  it('turns a refused stereo 44.1 kHz file into an accepted mono 16 kHz one, keeping its speech time', async () => {
    const original = makeWav({ seconds: 50, speechSeconds: 38, sampleRateHz: 44_100, channels: 2, seed: 21 });
    const before = await probeAudio(original);
    if (!before.ok) throw new Error(before.error.message);
    expect(judgeAudio(before.value, { isolateOldestSpeaker: false, conversion: false }).status).toBe(
      'needs_conversion',
    );
    const digest = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
    const before256 = digest(original);
    const conv = await convertWavToMono16k(original, header(original));
    expect(digest(original)).toBe(before256); // the original is untouched
    expect(conv).toMatchObject({ mixedDown: false, channel: 1, resampledFromHz: 44_100 });
    const after = await probeAudio(conv.bytes);
    if (!after.ok) throw new Error(after.error.message);
    expect(after.value).toMatchObject({ channels: 1, sampleRateHz: 16_000, bitRateBps: 256_000 });
    expect(after.value.durationSeconds).toBeCloseTo(50, 1);
    expect(after.value.speechSeconds!).toBeGreaterThan(before.value.speechSeconds! * 0.95);
    expect(after.value.speechSeconds!).toBeLessThan(before.value.speechSeconds! * 1.05);
    expect(judgeAudio(after.value, { isolateOldestSpeaker: false, conversion: false }).status).toBe(
      'accepted',
    );
  });

  it('resampling keeps a 440 Hz tone at 440 Hz and its level (no aliasing, no gain)', async () => {
    const rate = 48_000;
    const tone = new Float32Array(rate * 2).map((_, i) => 0.5 * Math.sin((2 * Math.PI * 440 * i) / rate));
    const wav = encodeWav([tone], { sampleRateHz: rate, format: 'float32' });
    const conv = await convertWavToMono16k(wav, header(wav));
    const out = readMonoSamples(conv.bytes, header(conv.bytes));
    const mid = out.subarray(4000, 28_000);
    let crossings = 0;
    for (let i = 1; i < mid.length; i++) if (mid[i - 1]! < 0 && mid[i]! >= 0) crossings++;
    expect(crossings / (mid.length / 16_000)).toBeCloseTo(440, -1);
    const rms = Math.sqrt(mid.reduce((s, x) => s + x * x, 0) / mid.length);
    expect(rms).toBeCloseTo(0.5 / Math.SQRT2, 2);
  });

  it('a high tone above the new Nyquist frequency is filtered out, not folded into the speech band', async () => {
    const rate = 48_000;
    const high = new Float32Array(rate).map((_, i) => 0.5 * Math.sin((2 * Math.PI * 11_000 * i) / rate));
    const wav = encodeWav([high], { sampleRateHz: rate, format: 'pcm16' });
    const conv = await convertWavToMono16k(wav, header(wav));
    const out = readMonoSamples(conv.bytes, header(conv.bytes));
    const mid = out.subarray(2000, 14_000);
    expect(Math.sqrt(mid.reduce((s, x) => s + x * x, 0) / mid.length)).toBeLessThan(0.01);
  });

  it('a 16 kHz stereo file sends one channel, and averages them only when asked for the mix', async () => {
    const wav = makeWav({ seconds: 35, speechSeconds: 31, sampleRateHz: 16_000, channels: 2, seed: 22 });
    expect(await convertWavToMono16k(wav, header(wav), 2)).toMatchObject({
      mixedDown: false,
      channel: 2,
      resampledFromHz: null,
    });
    expect(await convertWavToMono16k(wav, header(wav), 'mix')).toMatchObject({
      mixedDown: true,
      channel: 'mix',
    });
  });

  it('one-sided stereo keeps its level: the speaking channel is sent, not an average 6 dB quieter', async () => {
    const speech = makeSpeechLikeSignal({ seconds: 4, speechSeconds: 3, sampleRateHz: 16_000, seed: 5 });
    const wav = encodeWav([new Float32Array(speech.length), speech], {
      sampleRateHz: 16_000,
      format: 'pcm16',
    });
    const rms = (b: Uint8Array) => {
      const h = header(b);
      const x = readMonoSamples(b, h);
      return Math.sqrt(x.reduce((s, v) => s + v * v, 0) / x.length);
    };
    const sent = await convertWavToMono16k(wav, header(wav), 2);
    const mixed = await convertWavToMono16k(wav, header(wav), 'mix');
    expect(20 * Math.log10(rms(sent.bytes) / rms(mixed.bytes))).toBeCloseTo(6.02, 1);
  });
});
