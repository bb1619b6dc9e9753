/**
 * The one path from a recording on disk to its samples, for every format the decoders open (WAV in any
 * encoding, AIFF, CAF, FLAC, Ogg, WebM, MP3, MP4 with Opus or MP3): what reads audio for the speech
 * estimate, the local measures, the quality checks and the window's playable copy goes through here.
 *
 * `channelStreams` streams the channels asked for (each a 1-based channel or the mix of all), chunk
 * by chunk, so a consumer that streams holds one chunk at a time whatever the recording's length;
 * `readMonoFile` gathers the mix of all channels whole, for the measures that need the whole signal.
 */
import { err, ok, type Result } from '../../shared/result';
import type { AudioDecoder, DecodedStreamInfo, DecodeProblem, PcmChunk } from './decode/decoder';
import { concatSamples } from './decode/concat-bytes';
import { openAudioDecoder } from './decode/index';

/** A channel of a recording (1-based), or the mean of all its channels. */
export type ChannelPick = number | 'mix';

/** One chunk's samples of one channel, or of the mean of all channels. */
export const monoOf = (chunk: PcmChunk, pick: ChannelPick): Float32Array => {
  if (pick !== 'mix') return chunk.channels[pick - 1]!;
  if (chunk.channels.length === 1) return chunk.channels[0]!;
  const n = chunk.channels[0]!.length;
  const out = new Float32Array(n);
  for (const ch of chunk.channels) for (let i = 0; i < n; i++) out[i] = out[i]! + ch[i]!;
  for (let i = 0; i < n; i++) out[i] = out[i]! / chunk.channels.length;
  return out;
};

/**
 * The picked channels, chunk by chunk and in the order of `picks`; the other channels are dropped as
 * they come. Throws the decoder's DecodeFailure when damage is found while decoding.
 */
export async function* channelStreams(
  decoder: AudioDecoder,
  picks: readonly ChannelPick[],
): AsyncIterable<Float32Array[]> {
  for await (const chunk of decoder.chunks()) {
    if (chunk.channels.length === 0 || chunk.channels[0]!.length === 0) continue;
    yield picks.map((p) => monoOf(chunk, p));
  }
}

export interface MonoRecording {
  /** The mean of all channels, whole. */
  readonly samples: Float32Array;
  readonly sampleRateHz: number;
  readonly info: DecodedStreamInfo;
}

/** A recording's samples mixed down to mono, whole, with its rate; the decoder's reason when it cannot. */
export const readMonoFile = async (path: string): Promise<Result<MonoRecording, DecodeProblem>> => {
  const opened = await openAudioDecoder(path);
  if (!opened.ok) return opened;
  const decoder = opened.value;
  const parts: Float32Array[] = [];
  try {
    for await (const [mono] of channelStreams(decoder, ['mix']))
      parts.push(decoder.info.channels === 1 ? Float32Array.from(mono!) : mono!);
  } catch (e) {
    const problem = (e as { problem?: DecodeProblem }).problem;
    return err(problem ?? { code: 'corrupt', detail: `The audio could not be decoded: ${String(e)}` });
  }
  return ok({ samples: concatSamples(parts), sampleRateHz: decoder.info.sampleRateHz, info: decoder.info });
};
