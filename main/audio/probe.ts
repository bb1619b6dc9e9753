/**
 * What a recording is, read from its bytes: the container by sniffing; for WAV the header and the
 * speech time measured by the energy-based detector; for MP3, MP4 and OGG the container metadata
 * (duration, channels, sample rate, bit rate) read by music-metadata. Compressed audio is not decoded,
 * so its speech time is not measured (null): each caller decides what to do about that.
 */
import { parseBuffer } from 'music-metadata';
import { err, ok, type Result } from '../../shared/result';
import type { AudioFormat } from '../../shared/api/vocabulary';
import { sniffContainer } from './sniff';
import { estimateWavSpeech } from './speech-estimate';
import { parseWavHeader, type WavInfo } from './wav';

export interface ProbedAudio {
  readonly format: AudioFormat;
  readonly sizeBytes: number;
  readonly channels: number;
  readonly sampleRateHz: number;
  readonly bitRateBps: number;
  readonly durationSeconds: number;
  /** Measured speech time (WAV only); null when the audio was not decoded. */
  readonly speechSeconds: number | null;
  /** The WAV header, for WAV files (conversion needs it). */
  readonly wav: WavInfo | null;
}

export interface ProbeProblem {
  /** not_audio: no supported container; unsupported_encoding: a WAV encoding we cannot decode; unreadable: damaged. */
  readonly code: 'empty' | 'not_audio' | 'unsupported_encoding' | 'unreadable';
  readonly message: string;
}

const MIME = { mp3: 'audio/mpeg', mp4: 'audio/mp4', ogg: 'audio/ogg' } as const;

const problem = (code: ProbeProblem['code'], message: string): Result<never, ProbeProblem> =>
  err({ code, message });

const probeWav = (bytes: Uint8Array): Result<ProbedAudio, ProbeProblem> => {
  const parsed = parseWavHeader(bytes);
  if (!parsed.ok) {
    return parsed.error.code === 'unsupported_codec'
      ? problem('unsupported_encoding', parsed.error.detail)
      : problem('unreadable', `The WAV file cannot be read: ${parsed.error.detail}`);
  }
  const info = parsed.value;
  let speechSeconds: number;
  try {
    speechSeconds = estimateWavSpeech(bytes, info).speechSeconds;
  } catch (e) {
    return problem(
      'unreadable',
      `The WAV audio cannot be decoded: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  return ok({
    format: 'wav',
    sizeBytes: bytes.byteLength,
    channels: info.channels,
    sampleRateHz: Math.round(info.sampleRateHz),
    bitRateBps: Math.round(info.bitRateBps),
    durationSeconds: info.durationSeconds,
    speechSeconds: Math.min(speechSeconds, info.durationSeconds),
    wav: info,
  });
};

const probeCompressed = async (
  bytes: Uint8Array,
  format: keyof typeof MIME,
): Promise<Result<ProbedAudio, ProbeProblem>> => {
  const name = format.toUpperCase();
  let meta: Awaited<ReturnType<typeof parseBuffer>>;
  try {
    meta = await parseBuffer(
      bytes,
      { mimeType: MIME[format], size: bytes.byteLength },
      { duration: true, skipCovers: true },
    );
  } catch (e) {
    return problem(
      'unreadable',
      `The ${name} file cannot be read: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  const f = meta.format;
  const duration = f.duration;
  if (duration === undefined || !Number.isFinite(duration) || duration <= 0)
    return problem('unreadable', `The ${name} file's duration cannot be determined.`);
  if (f.numberOfChannels === undefined)
    return problem('unreadable', `The ${name} file's channel count cannot be determined.`);
  if (f.sampleRate === undefined || !(f.sampleRate > 0))
    return problem('unreadable', `The ${name} file's sample rate cannot be determined.`);
  const bitRate =
    f.bitrate !== undefined && Number.isFinite(f.bitrate) && f.bitrate > 0
      ? f.bitrate
      : (bytes.byteLength * 8) / duration;
  return ok({
    format,
    sizeBytes: bytes.byteLength,
    channels: f.numberOfChannels,
    sampleRateHz: Math.round(f.sampleRate),
    bitRateBps: Math.round(bitRate),
    durationSeconds: duration,
    speechSeconds: null,
    wav: null,
  });
};

export const probeAudio = async (bytes: Uint8Array): Promise<Result<ProbedAudio, ProbeProblem>> => {
  if (bytes.byteLength === 0) return problem('empty', 'The file is empty.');
  const container = sniffContainer(bytes.subarray(0, Math.min(bytes.byteLength, 64 * 1024)));
  if (container === null) return problem('not_audio', 'The file is not a WAV, MP3, MP4 or OGG recording.');
  return container === 'wav' ? probeWav(bytes) : probeCompressed(bytes, container);
};
