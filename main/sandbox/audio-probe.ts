/**
 * What the sandbox learns from an uploaded file: its container by sniffing, then for WAV the header
 * facts and the speech time measured by the energy-based detector on the PCM; for MP3, MP4 and OGG the
 * container metadata read by music-metadata (duration, channels, sample rate, bit rate). The sandbox
 * cannot decode compressed audio, so their speech time is 85 % of the duration (docs/spec-decisions.md).
 */
import { createHash } from 'node:crypto';
import { parseBuffer } from 'music-metadata';
import { err, ok, type Result } from '../../shared/result';
import { sniffContainer } from '../audio/sniff';
import { estimateWavSpeech } from '../audio/speech-estimate';
import { parseWavHeader } from '../audio/wav';
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

const MIME = { mp3: 'audio/mpeg', mp4: 'audio/mp4', ogg: 'audio/ogg' } as const;

export const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

const invalid = (message: string): Result<never, ProbeProblem> => err({ type: 'InvalidAudio', message });

const probeWav = (bytes: Uint8Array): Result<AudioFacts, ProbeProblem> => {
  const parsed = parseWavHeader(bytes);
  if (!parsed.ok) {
    return parsed.error.code === 'unsupported_codec'
      ? err({ type: 'UnsupportedAudio', message: `The WAV file's encoding is not supported: ${parsed.error.detail}` })
      : invalid(`The WAV file cannot be read: ${parsed.error.detail}`);
  }
  const info = parsed.value;
  let speechSeconds: number;
  try {
    speechSeconds = estimateWavSpeech(bytes, info).speechSeconds;
  } catch (e) {
    return invalid(`The WAV audio cannot be decoded: ${e instanceof Error ? e.message : String(e)}`);
  }
  return ok({
    format: 'wav',
    sizeBytes: bytes.byteLength,
    channels: info.channels,
    sampleRateHz: Math.round(info.sampleRateHz),
    bitRateBps: Math.round(info.bitRateBps),
    durationSeconds: info.durationSeconds,
    speechSeconds: Math.min(speechSeconds, info.durationSeconds),
    speechSource: 'vad',
  });
};

const probeCompressed = async (bytes: Uint8Array, format: keyof typeof MIME): Promise<Result<AudioFacts, ProbeProblem>> => {
  const name = format.toUpperCase();
  let meta: Awaited<ReturnType<typeof parseBuffer>>;
  try {
    meta = await parseBuffer(bytes, { mimeType: MIME[format], size: bytes.byteLength }, { duration: true, skipCovers: true });
  } catch (e) {
    return invalid(`The ${name} file cannot be read: ${e instanceof Error ? e.message : String(e)}`);
  }
  const f = meta.format;
  const duration = f.duration;
  if (duration === undefined || !Number.isFinite(duration) || duration <= 0) return invalid(`The ${name} file's duration cannot be determined.`);
  if (f.numberOfChannels === undefined) return invalid(`The ${name} file's channel count cannot be determined.`);
  if (f.sampleRate === undefined || !(f.sampleRate > 0)) return invalid(`The ${name} file's sample rate cannot be determined.`);
  const bitRate = f.bitrate !== undefined && Number.isFinite(f.bitrate) && f.bitrate > 0 ? f.bitrate : (bytes.byteLength * 8) / duration;
  return ok({
    format,
    sizeBytes: bytes.byteLength,
    channels: f.numberOfChannels,
    sampleRateHz: Math.round(f.sampleRate),
    bitRateBps: Math.round(bitRate),
    durationSeconds: duration,
    speechSeconds: duration * COMPRESSED_SPEECH_SHARE,
    speechSource: 'estimated',
  });
};

export const probeAudio = async (bytes: Uint8Array): Promise<Result<AudioFacts, ProbeProblem>> => {
  if (bytes.byteLength === 0) return invalid('Unsupported format: the audio is empty.');
  const container = sniffContainer(bytes.subarray(0, Math.min(bytes.byteLength, 64 * 1024)));
  if (container === null) return invalid('Unsupported format: the audio is not a WAV, MP3, MP4 or OGG file.');
  return container === 'wav' ? probeWav(bytes) : probeCompressed(bytes, container);
};
