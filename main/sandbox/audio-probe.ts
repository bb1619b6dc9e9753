/**
 * What the sandbox learns from an uploaded file, through the shared probe (main/audio/probe.ts), in
 * the sandbox's terms: its error types, and the speech time of a mono file by the import's own
 * estimate (Silero VAD, main/audio/file-speech.ts), measured once per distinct file. A compressed file
 * is decoded by the import's decoders; only a codec none of them decodes (AAC) gets a speech time of
 * 85 % of the duration, marked `estimated` (docs/spec-decisions.md).
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { err, ok, type Result } from '../../shared/result';
import { DecodeFailure } from '../audio/decode/decoder';
import { probeAudio as probe, type ProbedAudio } from '../audio/probe';
import { measureFileSpeech, measureWavBytesSpeech } from '../audio/file-speech';
import type { AudioFacts } from './state';

/** Share of the duration taken as speech for a file whose codec the sandbox cannot decode. */
export const UNDECODED_SPEECH_SHARE = 0.85;

export interface ProbeProblem {
  /**
   * `InvalidAudio`: not a file of a supported format, unreadable, or audio its decoder finds damaged.
   * `UnsupportedAudio`: a WAV whose encoding the sandbox cannot decode (ADPCM, A-law, µ-law, ...).
   */
  readonly type: 'InvalidAudio' | 'UnsupportedAudio';
  readonly message: string;
}

export const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/**
 * The file's facts, with its speech measured unless `speechMatters` says the upload is refused
 * whatever its speech (a recording too long to isolate a speaker in): then it is estimated, unmeasured.
 */
export const probeAudio = async (
  bytes: Uint8Array,
  speechMatters: (facts: ProbedAudio) => boolean = () => true,
): Promise<Result<AudioFacts, ProbeProblem>> => {
  const r = await probe(bytes);
  if (!r.ok) {
    switch (r.error.code) {
      case 'empty':
        return err({ type: 'InvalidAudio', message: 'Unsupported format: the audio is empty.' });
      case 'not_audio':
      case 'unsupported_format':
        return err({
          type: 'InvalidAudio',
          message: 'Unsupported format: the audio is not a WAV, MP3, MP4 or OGG file.',
        });
      case 'unsupported_encoding':
        return err({
          type: 'UnsupportedAudio',
          message: `The WAV file's encoding is not supported: ${r.error.message}`,
        });
      case 'unreadable':
      case 'too_large':
        return err({ type: 'InvalidAudio', message: r.error.message });
    }
  }
  const a = r.value;
  const speech = speechMatters(a) ? await speechOf(bytes, a) : ok(null);
  if (!speech.ok) return speech;
  return ok({
    format: a.format,
    sizeBytes: a.sizeBytes,
    channels: a.channels,
    sampleRateHz: a.sampleRateHz,
    bitRateBps: a.bitRateBps,
    durationSeconds: a.durationSeconds,
    speechSeconds: speech.value ?? a.durationSeconds * UNDECODED_SPEECH_SHARE,
    speechSource: speech.value === null ? 'estimated' : 'vad',
  });
};

/** Estimates already made, by the file's SHA-256: a file sent again (a retry) is not measured twice. */
const measured = new Map<string, number>();
const MEASURED_KEPT = 256;

/**
 * The speech time of a mono file by the import's estimate, at most its duration; a multichannel file
 * keeps the probe's own count (it is refused for its channels before speech is looked at); null when
 * no decoder here decodes its codec; InvalidAudio when the decoder finds the audio damaged.
 */
const speechOf = async (bytes: Uint8Array, a: ProbedAudio): Promise<Result<number | null, ProbeProblem>> => {
  if (a.channels !== 1) return ok(a.speechSeconds);
  const key = sha256Hex(bytes);
  const known = measured.get(key);
  if (known !== undefined) return ok(known);
  const r =
    a.wav !== null
      ? ok((await measureWavBytesSpeech(bytes, a.wav)).speechSeconds)
      : await measureEncoded(bytes);
  if (!r.ok || r.value === null) return r;
  const seconds = Math.min(r.value, a.durationSeconds);
  if (measured.size >= MEASURED_KEPT) measured.delete(measured.keys().next().value!);
  measured.set(key, seconds);
  return ok(seconds);
};

/**
 * A compressed upload's speech, measured as the import measures a file on disk: the import's decoders
 * open files by path, so the upload is written to a temporary file, measured and removed.
 */
const measureEncoded = async (bytes: Uint8Array): Promise<Result<number | null, ProbeProblem>> => {
  const dir = await mkdtemp(join(tmpdir(), 'voicescope-sandbox-'));
  try {
    const path = join(dir, 'upload');
    await writeFile(path, bytes);
    return ok((await measureFileSpeech({ path, choice: 1 })).sent.speechSeconds);
  } catch (e) {
    if (!(e instanceof DecodeFailure)) throw e;
    const { code, detail } = e.problem;
    if (code === 'no_decoder' || code === 'unknown_format') return ok(null);
    return err({ type: 'InvalidAudio', message: `The audio cannot be decoded: ${detail}` });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};
