/**
 * Lines decoded samples up with the recording: a lossy codec's decoder gives out samples the encoder
 * added before the audio (Opus pre-skip, MP3 encoder and decoder delay) and after it (padding to a
 * whole frame). `trimSamples` drops the first `skip` sample frames and stops after `keep` (all the rest
 * when null), passing the chunks through otherwise unchanged.
 */
import type { PcmChunk } from './decoder';

const slice = (chunk: PcmChunk, from: number, to: number): PcmChunk => ({
  channels: chunk.channels.map((c) => c.subarray(from, to)),
});

export async function* trimSamples(
  chunks: AsyncIterable<PcmChunk>,
  skip: number,
  keep: number | null,
): AsyncGenerator<PcmChunk> {
  let toSkip = Math.max(0, skip);
  let left = keep === null ? Infinity : Math.max(0, keep);
  for await (const chunk of chunks) {
    if (left <= 0) return;
    const length = chunk.channels[0]?.length ?? 0;
    const from = Math.min(length, toSkip);
    toSkip -= from;
    const to = Math.min(length, from + left);
    if (to > from) {
      left -= to - from;
      yield from === 0 && to === length ? chunk : slice(chunk, from, to);
    }
  }
}
