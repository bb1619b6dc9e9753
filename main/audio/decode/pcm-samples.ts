/**
 * Interleaved uncompressed samples (WAV, AIFF, CAF) to planar floats in [-1, 1]. Integers are scaled by
 * 2^(bits − 1) of their container, so a 24-bit sample and the same sample padded to 32 bits read alike;
 * 8-bit WAV is unsigned (centred on 128), 8-bit AIFF and CAF signed. Floats outside [-1, 1] are clipped
 * and NaN becomes 0. G.711 codes are expanded by table (g711.ts).
 */
import { ALAW_TO_FLOAT, MULAW_TO_FLOAT } from './g711';

export type SampleEncoding =
  | {
      readonly kind: 'int';
      readonly bytes: 1 | 2 | 3 | 4;
      readonly bigEndian: boolean;
      readonly unsigned8: boolean;
    }
  | { readonly kind: 'float'; readonly bytes: 4 | 8; readonly bigEndian: boolean }
  | { readonly kind: 'alaw'; readonly bytes: 1 }
  | { readonly kind: 'mulaw'; readonly bytes: 1 };

const clampUnit = (v: number): number => (v > 1 ? 1 : v < -1 ? -1 : v === v ? v : 0);

/** One sample at byte `p` as a float, for the encoding. */
const sampleReader = (enc: SampleEncoding, b: Uint8Array, dv: DataView): ((p: number) => number) => {
  if (enc.kind === 'alaw' || enc.kind === 'mulaw') {
    const table = enc.kind === 'alaw' ? ALAW_TO_FLOAT : MULAW_TO_FLOAT;
    return (p) => table[b[p]!]!;
  }
  const le = !enc.bigEndian;
  if (enc.kind === 'float')
    return enc.bytes === 4 ? (p) => clampUnit(dv.getFloat32(p, le)) : (p) => clampUnit(dv.getFloat64(p, le));
  switch (enc.bytes) {
    case 1:
      return enc.unsigned8 ? (p) => (b[p]! - 128) / 128 : (p) => dv.getInt8(p) / 128;
    case 2:
      return (p) => dv.getInt16(p, le) / 32768;
    case 3:
      return le
        ? (p) => (b[p]! | (b[p + 1]! << 8) | ((b[p + 2]! << 24) >> 8)) / 8388608
        : (p) => (b[p + 2]! | (b[p + 1]! << 8) | ((b[p]! << 24) >> 8)) / 8388608;
    default:
      return (p) => dv.getInt32(p, le) / 2147483648;
  }
};

/** The whole frames in `bytes` (interleaved, `channels` samples a frame) as one array per channel. */
export const deinterleave = (bytes: Uint8Array, enc: SampleEncoding, channels: number): Float32Array[] => {
  const width = enc.bytes;
  const frameBytes = width * channels;
  const frames = Math.floor(bytes.length / frameBytes);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const read = sampleReader(enc, bytes, dv);
  const out: Float32Array[] = [];
  for (let c = 0; c < channels; c++) {
    const ch = new Float32Array(frames);
    for (let i = 0, p = c * width; i < frames; i++, p += frameBytes) ch[i] = read(p);
    out.push(ch);
  }
  return out;
};
