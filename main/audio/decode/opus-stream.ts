/**
 * Opus packets to samples with `opus-decoder` (libopus in WebAssembly), at 48 kHz as Opus always
 * decodes. The stream's set-up comes from its identification header, OpusHead (RFC 7845, section 5.1),
 * which Ogg carries as its first packet and Matroska/WebM and MP4 as the track's codec private data:
 * channel count, pre-skip (samples the encoder added before the audio, dropped here), output gain and
 * the channel mapping for more than two channels.
 */
import { OpusDecoder } from 'opus-decoder';
import type { PcmChunk } from './decoder';
import { trimSamples } from './trim-samples';

export const OPUS_RATE = 48_000;
export const OPUS_DECODER = 'opus-decoder 0.7.12 (libopus, WebAssembly)';

export interface OpusHead {
  readonly channels: number;
  readonly preSkip: number;
  /** Output gain in dB (RFC 7845: applied to the decoded samples). */
  readonly gainDb: number;
  readonly mappingFamily: number;
  readonly streamCount: number;
  readonly coupledStreamCount: number;
  readonly mapping: readonly number[];
}

/** The OpusHead fields, or null when `b` is not an OpusHead. */
export const parseOpusHead = (b: Uint8Array | null): OpusHead | null => {
  if (!b || b.length < 19 || new TextDecoder().decode(b.subarray(0, 8)) !== 'OpusHead') return null;
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const channels = b[9]!;
  const mappingFamily = b[18]!;
  const explicit = mappingFamily !== 0 && b.length >= 21 + channels;
  return {
    channels,
    preSkip: v.getUint16(10, true),
    gainDb: v.getInt16(16, true) / 256,
    mappingFamily,
    streamCount: explicit ? b[19]! : 1,
    coupledStreamCount: explicit ? b[20]! : channels === 2 ? 1 : 0,
    mapping: explicit ? [...b.subarray(21, 21 + channels)] : channels === 2 ? [0, 1] : [0],
  };
};

const scaled = (channels: Float32Array[], gain: number): Float32Array[] =>
  gain === 1 ? channels : channels.map((c) => c.map((x) => x * gain));

async function* decodedPackets(head: OpusHead, packets: AsyncIterable<Uint8Array>): AsyncGenerator<PcmChunk> {
  const decoder = new OpusDecoder({
    channels: head.channels,
    streamCount: head.streamCount,
    coupledStreamCount: head.coupledStreamCount,
    channelMappingTable: [...head.mapping],
    preSkip: 0,
  });
  await decoder.ready;
  const gain = 10 ** (head.gainDb / 20);
  try {
    for await (const packet of packets) {
      const out = decoder.decodeFrame(packet);
      if (out.samplesDecoded > 0) {
        yield {
          channels: scaled(
            out.channelData.map((c) => c.slice(0, out.samplesDecoded)),
            gain,
          ),
        };
      }
    }
  } finally {
    decoder.free();
  }
}

/**
 * The samples of an Opus stream from its first sample: pre-skip dropped, and at most `totalSamples`
 * (the container's length at 48 kHz, when it says) so the end padding is dropped too.
 */
export const opusChunks = (
  head: OpusHead,
  packets: AsyncIterable<Uint8Array>,
  totalSamples: number | null,
): AsyncIterable<PcmChunk> => trimSamples(decodedPackets(head, packets), head.preSkip, totalSamples);
