import { describe, expect, it } from 'vitest';
import { probeAudio, type ProbedAudio } from '../../../main/audio/probe';
import {
  judgeAudio,
  judgeDecodedFormat,
  verdictFromProblem,
  type LocalVerdict,
  type VerdictOptions,
} from '../../../main/import/local-verdict';
import { makeLowBitRateMp3, makeMp3 } from '../../fixtures/compressed-audio';
import { encodeWav, makeWav } from '../../fixtures/audio';

const plain: VerdictOptions = { isolateOldestSpeaker: false, conversion: false };

const verdictOf = async (bytes: Uint8Array, opts: VerdictOptions = plain): Promise<LocalVerdict> => {
  const r = await probeAudio(bytes);
  return r.ok ? judgeAudio(r.value, opts) : verdictFromProblem(r.error);
};
const codes = (v: LocalVerdict) => v.findings.map((f) => `${f.severity}:${f.code}`);

const facts = (over: Partial<ProbedAudio>): ProbedAudio => ({
  format: 'wav',
  sizeBytes: 1_920_044,
  channels: 1,
  sampleRateHz: 16_000,
  bitRateBps: 256_000,
  durationSeconds: 60,
  speechSeconds: 45,
  channelSpeech: null,
  truncated: false,
  wav: null,
  ...over,
});

describe('local verdicts on real files (spec: Limits)', () => {
  it('a mono 16 kHz WAV with 45 s of speech is accepted without findings', async () =>
    expect(await verdictOf(makeWav({ seconds: 60, speechSeconds: 45, seed: 1 }))).toEqual({
      status: 'accepted',
      findings: [],
    }));

  it('under 30 s of speech is refused, with the measured time in the reason', async () => {
    const v = await verdictOf(makeWav({ seconds: 60, speechSeconds: 22, seed: 2 }));
    expect(v.status).toBe('refused');
    expect(codes(v)).toEqual(['refuse:speech_too_short']);
    expect(v.findings[0]!.message).toMatch(/About 2\d\.\d s of speech/);
  });

  it('stereo WAV needs conversion, and is converted when the researcher switched conversion on', async () => {
    const stereo = makeWav({ seconds: 45, speechSeconds: 38, channels: 2, seed: 3 });
    expect(await verdictOf(stereo)).toMatchObject({
      status: 'needs_conversion',
      findings: [{ code: 'not_mono', fixedByConversion: true }],
    });
    expect((await verdictOf(stereo, { ...plain, conversion: true })).status).toBe('will_convert');
  });

  it('8 kHz WAV is uploaded with a warning that the service may require 16 kHz', async () =>
    expect(
      codes(await verdictOf(makeWav({ seconds: 60, speechSeconds: 45, sampleRateHz: 8_000, seed: 4 }))),
    ).toEqual(['warn:sample_rate_below_16k']));

  it('isolation: over 10 minutes is refused; under 60 s of speech warns', async () => {
    const iso = { ...plain, isolateOldestSpeaker: true };
    expect(codes(judgeAudio(facts({ durationSeconds: 601, speechSeconds: 400 }), iso))).toEqual([
      'refuse:too_long_for_isolation',
    ]);
    expect(codes(judgeAudio(facts({ speechSeconds: 45 }), iso))).toEqual([
      'warn:isolation_may_leave_too_little',
    ]);
  });

  it('bytes that are no recording, an empty file and a compressed WAV are refused with what to do', async () => {
    expect(await verdictOf(new TextEncoder().encode('%PDF-1.7'.repeat(20)))).toMatchObject({
      status: 'refused',
      findings: [{ code: 'not_audio' }],
    });
    expect(await verdictOf(new Uint8Array(0))).toMatchObject({
      status: 'refused',
      findings: [{ code: 'empty' }],
    });
    const wav = encodeWav([new Float32Array(16_000)], { sampleRateHz: 16_000, format: 'pcm16' });
    const adpcm = Uint8Array.from(wav);
    new DataView(adpcm.buffer).setUint16(20, 0x0011, true);
    const v = await verdictOf(adpcm);
    expect(v).toMatchObject({ status: 'refused', findings: [{ code: 'unsupported_encoding' }] });
    expect(v.findings[0]!.action).toMatch(/PCM WAV/);
  });

  it('MP3: speech not measured yet says nothing; one whose audio Voicescope cannot decode passes with a warning; short ones are refused', async () => {
    expect(codes(await verdictOf(makeMp3({ seconds: 40 })))).toEqual([]);
    const undecoded = await verdictOf(makeMp3({ seconds: 40 }), { ...plain, speechNotDecoded: true });
    expect(codes(undecoded)).toEqual(['warn:speech_not_measured']);
    expect(undecoded.findings[0]!.message).toMatch(/cannot decode the audio of this MP3 file/);
    expect(codes(await verdictOf(makeMp3({ seconds: 20 })))).toEqual(['refuse:speech_too_short']);
    expect(codes(await verdictOf(makeLowBitRateMp3(40)))).toContain('refuse:bit_rate_too_low');
  });
});

describe('local verdict rules', () => {
  it('too large: fixable by conversion only for a WAV that would fit as mono 16 kHz', () => {
    expect(
      judgeAudio(
        facts({ sizeBytes: 60_000_000, channels: 2, sampleRateHz: 48_000, durationSeconds: 310 }),
        plain,
      ).findings.map((f) => [f.code, f.fixedByConversion]),
    ).toEqual([
      ['too_large', true],
      ['not_mono', true],
    ]);
    expect(
      judgeAudio(facts({ format: 'mp3', sizeBytes: 60_000_000, speechSeconds: null }), plain).status,
    ).toBe('refused');
    expect(
      judgeAudio(facts({ sizeBytes: 60_000_000, durationSeconds: 3000 }), plain).findings[0]!
        .fixedByConversion,
    ).toBe(false);
  });

  it('speech within 4 s of the 30 s minimum is borderline, a decision for the researcher, not a refusal', () => {
    for (const s of [26, 29.5, 31, 33.9]) {
      const v = judgeAudio(facts({ speechSeconds: s }), plain);
      expect(v.status).toBe('borderline');
      expect(v.findings[0]!.message).toContain(`Borderline: about ${s.toFixed(1)} s of speech`);
    }
    expect(judgeAudio(facts({ speechSeconds: 25.9 }), plain).status).toBe('refused');
    expect(judgeAudio(facts({ speechSeconds: 34 }), plain).status).toBe('accepted');
  });

  it('a clear refusal stays refused even when the speech is borderline', () =>
    expect(judgeAudio(facts({ speechSeconds: 30, sampleRateHz: 6_000 }), plain).status).toBe('refused'));

  it('stores the speech figure with the method and the channel measured', () =>
    expect(
      judgeAudio(facts({ speechSeconds: 40 }), {
        ...plain,
        speech: { seconds: 40, method: 'silero', channelSent: 2 },
      }).speech,
    ).toEqual({ seconds: 40, method: 'silero', channelSent: 2 }));

  it('a truncated file is a warning that says the end is missing', () =>
    expect(judgeAudio(facts({ truncated: true }), plain)).toMatchObject({
      status: 'accepted_with_warnings',
      findings: [{ code: 'truncated', severity: 'warn' }],
    }));

  it('under 8 kHz is refused and cannot be fixed by resampling', () =>
    expect(judgeAudio(facts({ sampleRateHz: 6_000 }), { ...plain, conversion: true })).toMatchObject({
      status: 'refused',
      findings: [{ code: 'sample_rate_too_low', fixedByConversion: false }],
    }));

  it('a format conversion sends (FLAC) is judged on the speech of its decoded audio, like a WAV', () => {
    const flac = {
      code: 'unsupported_format' as const,
      message: 'The file’s format is FLAC; the service does not take FLAC.',
      decodedBy: 'FLAC decoder',
      decoded: { channels: 2, sampleRateHz: 48_000, durationSeconds: 60 },
    };
    const speech = { seconds: 20, method: 'silero', channelSent: 2 };
    expect(judgeDecodedFormat(flac, 20, { ...plain, conversion: true, speech })).toMatchObject({
      status: 'refused',
      findings: [{ code: 'unsupported_format', fixedByConversion: true }, { code: 'speech_too_short' }],
      speech,
    });
    // As for a stereo WAV: converted and sent, the borderline speech said.
    expect(judgeDecodedFormat(flac, 31, { ...plain, conversion: true })).toMatchObject({
      status: 'will_convert',
      findings: [{ code: 'unsupported_format' }, { code: 'speech_borderline' }],
    });
    expect(judgeDecodedFormat(flac, 40, { ...plain, conversion: true }).status).toBe('will_convert');
    expect(judgeDecodedFormat(flac, 40, plain).status).toBe('needs_conversion');
  });
});
