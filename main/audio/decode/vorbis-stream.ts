/**
 * Vorbis packets to samples with `stb-vorbis` (the public-domain stb_vorbis decoder compiled to
 * WebAssembly). That build decodes only a whole Ogg Vorbis stream at once, so the packets are handed to
 * it in windows, each written as a short Ogg stream of its own (ogg-pages.ts): the three header packets,
 * then a few packets already decoded in the window before (a Vorbis packet's samples overlap the
 * packet's before it, and a stream's first audio packet gives none), then the new packets. Of each
 * window's output only the new packets' samples are kept, counted from the packets' block sizes
 * (vorbis-blocks.ts). Memory stays at one window however long the file is.
 */
import { StbVorbis } from 'stb-vorbis';
import type { CompressedPacket } from './compressed-track';
import type { PcmChunk } from './decoder';
import { oggStream, type OggPacket } from './ogg-pages';
import { vorbisBlocks } from './vorbis-blocks';

export const VORBIS_DECODER = 'stb-vorbis 0.0.6 (stb_vorbis, WebAssembly)';

const WINDOW_PACKETS = 512;
const PREROLL_PACKETS = 2;

interface CountedPacket {
  readonly data: Uint8Array;
  readonly samples: number;
}

/**
 * The three header packets (identification, comment, setup) from the codec private data, which
 * Matroska and WebCodecs give in Xiph lacing: the count less one, the sizes of all but the last in
 * runs of 255, then the packets one after another. Null when the data is not that.
 */
export const vorbisHeaders = (d: Uint8Array | null): Uint8Array[] | null => {
  if (!d || d.length < 3 || d[0] !== 2) return null;
  const sizes: number[] = [];
  let at = 1;
  for (let k = 0; k < 2; k++) {
    let size = 0;
    while (at < d.length && d[at] === 255) size += d[at++]!;
    if (at >= d.length) return null;
    size += d[at++]!;
    sizes.push(size);
  }
  const third = d.length - at - sizes[0]! - sizes[1]!;
  if (third <= 0) return null;
  const packets = [...sizes, third].map((n) => {
    const p = d.subarray(at, at + n);
    at += n;
    return p;
  });
  return packets[0]![0] === 1 && packets[2]![0] === 5 ? packets : null;
};

const windowStream = (headers: readonly Uint8Array[], packets: readonly CountedPacket[]): Uint8Array => {
  let granule = 0n;
  const audio: OggPacket[] = packets.map((p, i) => {
    granule += BigInt(i === 0 ? 0 : p.samples);
    return { data: p.data, granule };
  });
  return oggStream([...headers.map((data) => ({ data, granule: 0n })), ...audio]);
};

/** The samples of a Vorbis stream, window by window. */
export async function* vorbisChunks(
  headers: readonly Uint8Array[],
  packets: AsyncIterable<CompressedPacket>,
): AsyncGenerator<PcmChunk> {
  const blocks = vorbisBlocks(headers[0]!, headers[2]!);
  if (!blocks) throw new Error('The Vorbis setup header has no readable modes.');
  await StbVorbis.ready;
  let preroll: CountedPacket[] = [];
  let fresh: CountedPacket[] = [];
  const decodeWindow = (): PcmChunk => {
    const out = StbVorbis.decode(windowStream(headers, [...preroll, ...fresh])).channels;
    const wanted = fresh.reduce((n, p) => n + p.samples, 0);
    const start = Math.max(0, (out[0]?.length ?? 0) - wanted);
    preroll = fresh.slice(-PREROLL_PACKETS);
    fresh = [];
    return { channels: out.map((c) => c.subarray(start)) };
  };
  for await (const p of packets) {
    fresh.push({ data: p.data.slice(), samples: blocks.samplesOf(p.data) });
    if (fresh.length === WINDOW_PACKETS) yield decodeWindow();
  }
  if (fresh.length > 0) yield decodeWindow();
}
