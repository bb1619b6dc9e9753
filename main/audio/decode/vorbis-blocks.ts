/**
 * How many samples each Vorbis audio packet gives (Vorbis I specification): a packet's first bit says
 * it is audio (0), the next ilog(modes - 1) bits name its mode, and the mode's block flag picks the
 * short or the long block size from the identification header (byte 28: log2 of each, short in the low
 * four bits). A packet gives the samples from the middle of the block before it to the middle of its
 * own, a quarter of each block; a stream's first packet gives none.
 *
 * The modes are the last thing in the setup header, after codebooks whose length is only known by
 * decoding them, so they are read from the end: the framing bit is the header's last set bit, and
 * before it lie the mode entries, 41 bits each (block flag 1, window type 16, transform type 16, both 0
 * in Vorbis I, mapping 8), after a 6-bit count less one. The largest count whose entries all have zero
 * window and transform types and whose count field agrees is taken.
 */

const bitAt = (b: Uint8Array, i: number): number => (b[i >> 3]! >> (i & 7)) & 1;

/** `n` bits starting at bit `at`, least significant first (the Vorbis bit packing). */
const bits = (b: Uint8Array, at: number, n: number): number => {
  let v = 0;
  for (let k = 0; k < n; k++) v |= bitAt(b, at + k) << k;
  return v >>> 0;
};

const MODE_BITS = 41;

/** The block flag of each mode, from the setup header; null when the modes cannot be found. */
export const vorbisModeBlockFlags = (setup: Uint8Array): boolean[] | null => {
  let framing = setup.length * 8 - 1;
  while (framing >= 0 && bitAt(setup, framing) === 0) framing--;
  let found: boolean[] | null = null;
  const flags: boolean[] = [];
  for (let count = 1; count <= 64; count++) {
    const entry = framing - MODE_BITS * count;
    if (entry - 6 < 7 * 8) break;
    if (bits(setup, entry + 1, 16) !== 0 || bits(setup, entry + 17, 16) !== 0) break;
    flags.unshift(bitAt(setup, entry) === 1);
    if (bits(setup, entry - 6, 6) === count - 1) found = [...flags];
  }
  return found;
};

const ilog = (x: number): number => (x <= 0 ? 0 : 32 - Math.clz32(x));

export interface VorbisBlocks {
  /** Samples the packet gives, given the previous packet's block size (null for the stream's first). */
  samplesOf(packet: Uint8Array): number;
}

/** A counter of packet samples for one stream, from its identification and setup headers. */
export const vorbisBlocks = (identification: Uint8Array, setup: Uint8Array): VorbisBlocks | null => {
  const modes = vorbisModeBlockFlags(setup);
  if (!modes || identification.length < 29) return null;
  const short = 1 << (identification[28]! & 0x0f);
  const long = 1 << (identification[28]! >> 4);
  const modeBits = ilog(modes.length - 1);
  let previous: number | null = null;
  return {
    samplesOf: (packet) => {
      if (packet.length === 0 || (packet[0]! & 1) !== 0) return 0; // not an audio packet
      const mode = bits(packet, 1, modeBits);
      const size = modes[mode] ? long : short;
      const samples = previous === null ? 0 : previous / 4 + size / 4;
      previous = size;
      return samples;
    },
  };
};
