/**
 * The one shape of every audio decoder in the product. A decoder names what it opened (container,
 * codec, rate, channels, and the library that decodes it, for the recording's provenance) and yields
 * the samples as planar float chunks, so a two-hour recording is decoded with bounded memory: a caller
 * never holds more than one chunk per channel unless it chooses to.
 *
 * Each format lives in its own module beside this one and is listed once in `formats.ts`.
 */
import type { Result } from '../../../shared/result';

/** What a decoder found in the file's headers, before any sample is decoded. */
export interface DecodedStreamInfo {
  /** The container, e.g. 'wav', 'flac', 'aiff', 'caf', 'mp3', 'mp4', 'ogg', 'webm'. */
  readonly container: string;
  /** The coding inside it, e.g. 'pcm', 'float', 'alaw', 'mulaw', 'ima-adpcm', 'flac', 'aac', 'opus'. */
  readonly codec: string;
  readonly sampleRateHz: number;
  readonly channels: number;
  /** From the headers when they say; null when only decoding the whole file can tell. */
  readonly durationSeconds: number | null;
  /** What decodes it, for provenance: this project's own reader or a package with its version. */
  readonly decoder: string;
}

/** Samples of every channel for the same stretch of time: equal lengths, values in [-1, 1]. */
export interface PcmChunk {
  readonly channels: readonly Float32Array[];
}

export interface AudioDecoder {
  readonly info: DecodedStreamInfo;
  /** The samples from the start, chunk by chunk; iterating again starts again from the start. */
  chunks(): AsyncIterable<PcmChunk>;
}

/** Why a file cannot be decoded, in a researcher's words (`detail`), with a code for the program. */
export interface DecodeProblem {
  readonly code: 'unknown_format' | 'no_decoder' | 'corrupt' | 'unreadable';
  readonly detail: string;
}

/** One format the product decodes: recognised from the file's first bytes, then opened by path. */
export interface DecodableFormat {
  readonly name: string;
  /** True when `head` (the file's first bytes, at least 64 when the file has them) is this format. */
  recognise(head: Uint8Array): boolean;
  open(path: string, head: Uint8Array): Promise<Result<AudioDecoder, DecodeProblem>>;
}

/**
 * What `chunks()` throws when damage is found only while decoding (a frame whose checksum fails, a
 * stream cut inside a frame): the problem, in the same words as an opening problem.
 */
export class DecodeFailure extends Error {
  constructor(readonly problem: DecodeProblem) {
    super(problem.detail);
    this.name = 'DecodeFailure';
  }
}
