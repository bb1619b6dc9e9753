/**
 * The decoder of every container whose samples are stored uncompressed and interleaved (WAV PCM, float
 * and G.711; AIFF and AIFF-C; CAF linear PCM): the frames are read block by block from the file.
 */
import type { AudioDecoder, DecodedStreamInfo, PcmChunk } from './decoder';
import { readFileBlocks } from './file-blocks';
import { deinterleave, type SampleEncoding } from './pcm-samples';

export interface InterleavedLayout {
  readonly dataOffset: number;
  readonly frames: number;
  readonly encoding: SampleEncoding;
}

export const interleavedDecoder = (
  path: string,
  layout: InterleavedLayout,
  info: Omit<DecodedStreamInfo, 'durationSeconds'>,
): AudioDecoder => {
  const frameBytes = layout.encoding.bytes * info.channels;
  async function* chunks(): AsyncGenerator<PcmChunk> {
    for await (const block of readFileBlocks(path, layout.dataOffset, layout.frames * frameBytes, frameBytes))
      yield { channels: deinterleave(block, layout.encoding, info.channels) };
  }
  return { info: { ...info, durationSeconds: layout.frames / info.sampleRateHz }, chunks };
};
