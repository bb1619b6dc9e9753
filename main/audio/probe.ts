/**
 * What a recording is, read from its bytes: the container by sniffing; for WAV the header checked
 * against the file's real length and the speech time measured on every channel; for MP3 the frames
 * counted to the end (a cut file keeps a header that promises the whole recording); for MP4/M4A the
 * AAC decoder configuration (the sample entry's channel count is 2 for many mono files); for OGG the
 * container metadata read by music-metadata. Compressed audio is not decoded, so its speech time is
 * not measured (null): each caller decides what to do about that.
 */
import { recogniseOtherFormat } from './other-formats';
import { parseBuffer } from 'music-metadata';
import { err, ok, type Result } from '../../shared/result';
import type { AudioFormat } from '../../shared/api/vocabulary';
import { countMp3Frames } from './mp3-frames';
import { readMp4AudioConfig } from './mp4-audio-config';
import { sniffContainer } from './sniff';
import { estimateWavChannels, type ChannelSpeech } from './speech-estimate';
import { parseWavHeader, type WavInfo } from './wav';

export interface ProbedAudio {
  readonly format: AudioFormat;
  readonly sizeBytes: number;
  readonly channels: number;
  readonly sampleRateHz: number;
  readonly bitRateBps: number;
  readonly durationSeconds: number;
  /** Measured speech time (WAV only) of the channel that would be sent; null when the audio was not decoded. */
  readonly speechSeconds: number | null;
  /** Speech per channel and in the mix (WAV only); null when not measured. */
  readonly channelSpeech: ChannelSpeech | null;
  /** The file is shorter than its header says (WAV data chunk, MP3 frames): the end of the recording is missing. */
  readonly truncated: boolean;
  /** The WAV header, for WAV files (conversion needs it). */
  readonly wav: WavInfo | null;
  /** For a compressed file Voicescope decodes: what decodes it, so conversion can make it mono. */
  readonly decodedBy?: string;
}

export interface ProbeProblem {
  /**
   * too_large: over the service's size limit, refused without reading it whole; not_audio: no supported
   * container; unsupported_format: an audio format the service does not take (FLAC, AIFF, WebM, ...,
   * named in the message); unsupported_encoding: a WAV encoding we cannot decode; unreadable: damaged.
   */
  readonly code:
    'empty' | 'not_audio' | 'unsupported_format' | 'unsupported_encoding' | 'unreadable' | 'too_large';
  readonly message: string;
  /** What to do, when it depends on the file (the format's own advice); else the code's. */
  readonly action?: string;
  /** For a format the service does not take: what in Voicescope decodes it, so conversion can send it. */
  readonly decodedBy?: string;
  /** The same: the facts its decoder gives, for the preview. */
  readonly decoded?: DecodedFacts;
}

/** A format the service does not take that one of the product's decoders opens, with what it said of the file. */
export type DecodableProblem = ProbeProblem & { readonly decodedBy: string; readonly decoded: DecodedFacts };

/** What a decoder says of a file before decoding it: its channels, rate and length (when its headers say). */
export interface DecodedFacts {
  readonly channels: number;
  readonly sampleRateHz: number;
  readonly durationSeconds: number | null;
}

/** The problem of a file in a format the service does not take, named from its first bytes; null otherwise. */
export const otherFormatProblem = (head: Uint8Array): ProbeProblem | null => {
  const f = recogniseOtherFormat(head);
  return f
    ? {
        code: 'unsupported_format',
        message: `The file's format is ${f.name}; the service does not take ${f.name}.`,
        action: f.action,
      }
    : null;
};

const MIME = { mp3: 'audio/mpeg', mp4: 'audio/mp4', ogg: 'audio/ogg' } as const;

const problem = (code: ProbeProblem['code'], message: string): Result<never, ProbeProblem> =>
  err({ code, message });

/** The facts of a WAV file from its header, before (or without) decoding the samples. */
export const wavFacts = (info: WavInfo, sizeBytes: number): ProbedAudio => ({
  format: 'wav',
  sizeBytes,
  channels: info.channels,
  sampleRateHz: Math.round(info.sampleRateHz),
  bitRateBps: Math.round(info.bitRateBps),
  durationSeconds: info.durationSeconds,
  speechSeconds: null,
  channelSpeech: null,
  truncated: info.truncated,
  wav: info,
});

/** Adds measured speech to a WAV file's facts; `speechSeconds` is the channel that would be sent (auto). */
export const withSpeech = (a: ProbedAudio, speech: ChannelSpeech): ProbedAudio => ({
  ...a,
  speechSeconds: Math.min(speech.chosen.speechSeconds, a.durationSeconds),
  channelSpeech: speech,
});

export const wavProblem = (parsed: { code: string; detail: string }): Result<never, ProbeProblem> =>
  parsed.code === 'unsupported_codec'
    ? problem('unsupported_encoding', parsed.detail)
    : problem('unreadable', `The WAV file cannot be read: ${parsed.detail}`);

const probeWav = (bytes: Uint8Array): Result<ProbedAudio, ProbeProblem> => {
  const parsed = parseWavHeader(bytes);
  if (!parsed.ok) return wavProblem(parsed.error);
  const info = parsed.value;
  try {
    return ok(withSpeech(wavFacts(info, bytes.byteLength), estimateWavChannels(bytes, info)));
  } catch (e) {
    return problem(
      'unreadable',
      `The WAV audio cannot be decoded: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
};

/** Channel count as the decoder will produce it: the AAC configuration, not the sample entry's field. */
const mp4Channels = (bytes: Uint8Array, fromHeader: number | undefined): number | undefined => {
  const config = readMp4AudioConfig(bytes);
  if (!config || config.channels === null) return fromHeader;
  // Parametric stereo (object type 29) decodes a mono core to two channels.
  return config.objectType === 29 && config.channels === 1 ? 2 : config.channels;
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
  let duration = f.duration;
  let channels = f.numberOfChannels;
  let sampleRate = f.sampleRate;
  let bitRate = f.bitrate;
  let truncated = false;
  if (format === 'mp3') {
    const counted = countMp3Frames(bytes);
    if (counted) {
      duration = counted.durationSeconds;
      channels = counted.channels;
      sampleRate = counted.sampleRateHz;
      bitRate = counted.bitRateBps;
      truncated = counted.truncated;
    }
  } else if (format === 'mp4') channels = mp4Channels(bytes, channels);
  if (duration === undefined || !Number.isFinite(duration) || duration <= 0)
    return problem('unreadable', `The ${name} file's duration cannot be determined.`);
  if (channels === undefined)
    return problem('unreadable', `The ${name} file's channel count cannot be determined.`);
  if (sampleRate === undefined || !(sampleRate > 0))
    return problem('unreadable', `The ${name} file's sample rate cannot be determined.`);
  const rate =
    bitRate !== undefined && Number.isFinite(bitRate) && bitRate > 0
      ? bitRate
      : (bytes.byteLength * 8) / duration;
  return ok({
    format,
    sizeBytes: bytes.byteLength,
    channels,
    sampleRateHz: Math.round(sampleRate),
    bitRateBps: Math.round(rate),
    durationSeconds: duration,
    speechSeconds: null,
    channelSpeech: null,
    truncated,
    wav: null,
  });
};

export const NOT_AUDIO_MESSAGE = 'The file is not a WAV, MP3, MP4 or OGG recording.';

export const probeAudio = async (bytes: Uint8Array): Promise<Result<ProbedAudio, ProbeProblem>> => {
  if (bytes.byteLength === 0) return problem('empty', 'The file is empty.');
  const container = sniffContainer(bytes.subarray(0, Math.min(bytes.byteLength, 64 * 1024)));
  if (container === null) {
    const other = otherFormatProblem(bytes.subarray(0, Math.min(bytes.byteLength, 64 * 1024)));
    return other ? err(other) : problem('not_audio', NOT_AUDIO_MESSAGE);
  }
  return container === 'wav' ? probeWav(bytes) : probeCompressed(bytes, container);
};
