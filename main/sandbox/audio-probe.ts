/**
 * What the sandbox learns from an uploaded file, through the shared probe (main/audio/probe.ts), in
 * the sandbox's terms: its error types; the speech time of a mono WAV by the import's own estimate
 * (Silero VAD, main/audio/file-speech.ts), measured once per distinct file; and for compressed
 * audio, which it cannot decode, a speech time of 85 % of the duration (docs/spec-decisions.md).
 */
import { createHash } from 'node:crypto';
import { err, ok, type Result } from '../../shared/result';
import { probeAudio as probe, type ProbedAudio } from '../audio/probe';
import { measureWavBytesSpeech } from '../audio/file-speech';
import type { AudioFacts } from './state';

/** Share of a compressed file's duration taken as speech. */
export const COMPRESSED_SPEECH_SHARE = 0.85;

export interface ProbeProblem {
  /**
   * `InvalidAudio`: not a file of a supported format, or unreadable. `UnsupportedAudio`: a WAV whose
   * encoding the sandbox cannot decode (ADPCM, A-law, µ-law, ...).
   */
  readonly type: 'InvalidAudio' | 'UnsupportedAudio';
  readonly message: string;
}

export const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

export const probeAudio = async (bytes: Uint8Array): Promise<Result<AudioFacts, ProbeProblem>> => {
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
  const speechSeconds = await speechOf(bytes, a);
  return ok({
    format: a.format,
    sizeBytes: a.sizeBytes,
    channels: a.channels,
    sampleRateHz: a.sampleRateHz,
    bitRateBps: a.bitRateBps,
    durationSeconds: a.durationSeconds,
    speechSeconds: speechSeconds ?? a.durationSeconds * COMPRESSED_SPEECH_SHARE,
    speechSource: speechSeconds === null ? 'estimated' : 'vad',
  });
};

/** Estimates already made, by the file's SHA-256: a file sent again (a retry) is not measured twice. */
const measured = new Map<string, number>();
const MEASURED_KEPT = 256;

/**
 * The speech time of a decodable file: a mono WAV by the import's estimate; a multichannel WAV keeps the
 * probe's own count (it is refused for its channels before speech is looked at); null for compressed audio.
 */
const speechOf = async (bytes: Uint8Array, a: ProbedAudio): Promise<number | null> => {
  if (a.wav === null || a.channels !== 1) return a.speechSeconds;
  const key = sha256Hex(bytes);
  const known = measured.get(key);
  if (known !== undefined) return known;
  const seconds = Math.min((await measureWavBytesSpeech(bytes, a.wav)).speechSeconds, a.durationSeconds);
  if (measured.size >= MEASURED_KEPT) measured.delete(measured.keys().next().value!);
  measured.set(key, seconds);
  return seconds;
};
