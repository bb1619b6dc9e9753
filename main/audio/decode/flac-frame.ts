/**
 * One FLAC frame (RFC 9639, section 9.1): the header (sync code, block size, rate, channel assignment,
 * bit depth, coded frame or sample number, CRC-8), a subframe per channel, the stereo decorrelation
 * undone (left/side, side/right, mid/side), and the frame's CRC-16 checked.
 */
import { BitReader, crc16, crc8 } from './flac-bits';
import { FlacDamage, readSubframe } from './flac-subframe';

export interface StreamDefaults {
  readonly sampleRateHz: number;
  readonly bitDepth: number;
}

export interface DecodedFrame {
  /** Integer samples per channel. */
  readonly channels: Float64Array[];
  readonly bitDepth: number;
  /** Where the next frame starts. */
  readonly end: number;
}

const RATES = [0, 88200, 176400, 192000, 8000, 16000, 22050, 24000, 32000, 44100, 48000, 96000];
const DEPTHS = [0, 8, 12, -1, 16, 20, 24, 32];

/** True when a frame's 14-bit sync code (0b11111111111110) and the reserved 0 bit start at `at`. */
export const isFrameSync = (b: Uint8Array, at: number): boolean =>
  b[at] === 0xff && ((b[at + 1] ?? 0) & 0xfe) === 0xf8;

/** Skips the coded frame/sample number: a UTF-8-like sequence of 1–7 bytes (section 9.1.5). */
const skipCodedNumber = (r: BitReader): void => {
  const first = r.bits(8);
  if (first < 0x80) return;
  let extra = 0;
  for (let m = 0x40; first & m && extra < 6; m >>= 1) extra++;
  if (extra === 0) throw new FlacDamage('bad coded number');
  for (let i = 0; i < extra; i++) if ((r.bits(8) & 0xc0) !== 0x80) throw new FlacDamage('bad coded number');
};

const blockSizeOf = (code: number, r: BitReader): number => {
  if (code === 0) throw new FlacDamage('reserved block size');
  if (code === 1) return 192;
  if (code <= 5) return 576 << (code - 2);
  if (code === 6) return r.bits(8) + 1;
  if (code === 7) return r.bits(16) + 1;
  return 256 << (code - 8);
};

const rateOf = (code: number, r: BitReader, defaults: StreamDefaults): number => {
  if (code === 0) return defaults.sampleRateHz;
  if (code <= 11) return RATES[code]!;
  if (code === 12) return r.bits(8) * 1000;
  if (code === 13) return r.bits(16);
  if (code === 14) return r.bits(16) * 10;
  throw new FlacDamage('invalid sample rate');
};

interface Header {
  readonly blockSize: number;
  readonly assignment: number;
  readonly bitDepth: number;
}

const readHeader = (b: Uint8Array, r: BitReader, start: number, defaults: StreamDefaults): Header => {
  r.bits(16); // sync, reserved bit, blocking strategy
  const sizeCode = r.bits(4);
  const rateCode = r.bits(4);
  const assignment = r.bits(4);
  const depthCode = r.bits(3);
  if (r.bits(1) !== 0) throw new FlacDamage('reserved header bit set');
  skipCodedNumber(r);
  const blockSize = blockSizeOf(sizeCode, r);
  rateOf(rateCode, r, defaults);
  const crc = crc8(b, start, r.bytePos);
  if (r.bits(8) !== crc) throw new FlacDamage('frame header checksum');
  if (assignment > 10) throw new FlacDamage('reserved channel assignment');
  const bitDepth = depthCode === 0 ? defaults.bitDepth : DEPTHS[depthCode]!;
  if (bitDepth < 0) throw new FlacDamage('reserved bit depth');
  return { blockSize, assignment, bitDepth };
};

/** Undoes the stereo decorrelation (section 4.2) in place: the two arrays become left and right. */
const undoStereo = (assignment: number, a: Float64Array, b: Float64Array): void => {
  const n = a.length;
  if (assignment === 8) for (let i = 0; i < n; i++) b[i] = a[i]! - b[i]!;
  else if (assignment === 9) for (let i = 0; i < n; i++) a[i]! += b[i]!;
  else if (assignment === 10)
    for (let i = 0; i < n; i++) {
      const side = b[i]!;
      const mid = a[i]! * 2 + (side % 2 === 0 ? 0 : 1);
      a[i] = (mid + side) / 2;
      b[i] = (mid - side) / 2;
    }
};

/** Decodes the frame at `start`; throws OutOfData when the bytes end inside it, FlacDamage when it is damaged. */
export const decodeFrame = (b: Uint8Array, start: number, defaults: StreamDefaults): DecodedFrame => {
  const r = new BitReader(b, start);
  const h = readHeader(b, r, start, defaults);
  const count = h.assignment < 8 ? h.assignment + 1 : 2;
  const channels: Float64Array[] = [];
  for (let c = 0; c < count; c++) {
    const side =
      (h.assignment === 8 && c === 1) || (h.assignment === 9 && c === 0) || (h.assignment === 10 && c === 1);
    channels.push(readSubframe(r, h.blockSize, h.bitDepth + (side ? 1 : 0)));
  }
  if (h.assignment >= 8) undoStereo(h.assignment, channels[0]!, channels[1]!);
  r.align();
  const crc = crc16(b, start, r.bytePos);
  if (r.bits(16) !== crc) throw new FlacDamage('frame checksum');
  return { channels, bitDepth: h.bitDepth, end: r.bytePos };
};
