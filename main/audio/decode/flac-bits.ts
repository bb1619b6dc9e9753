/**
 * Reading a FLAC frame bit by bit, most significant bit first (RFC 9639, section 9), and the two
 * checksums of its frames: CRC-8 of the header (polynomial x^8 + x^2 + x + 1) and CRC-16 of the whole
 * frame (x^16 + x^15 + x^2 + 1), both starting from 0.
 */

/** Thrown when a frame runs past the bytes read so far: the caller reads more and tries again. */
export class OutOfData extends Error {}

export class BitReader {
  bytePos: number;
  private bitPos = 0;

  constructor(
    private readonly buf: Uint8Array,
    start: number,
  ) {
    this.bytePos = start;
  }

  private byte(): number {
    const b = this.buf[this.bytePos];
    if (b === undefined) throw new OutOfData();
    return b;
  }

  /** An unsigned number of `n` bits (n ≤ 53). */
  bits(n: number): number {
    let v = 0;
    while (n > 0) {
      const avail = 8 - this.bitPos;
      const take = avail < n ? avail : n;
      const part = (this.byte() >> (avail - take)) & ((1 << take) - 1);
      v = v * (1 << take) + part;
      n -= take;
      this.bitPos += take;
      if (this.bitPos === 8) {
        this.bitPos = 0;
        this.bytePos++;
      }
    }
    return v;
  }

  /** A two's-complement number of `n` bits. */
  signed(n: number): number {
    if (n === 0) return 0;
    const v = this.bits(n);
    return v >= 2 ** (n - 1) ? v - 2 ** n : v;
  }

  /** The count of 0 bits before the next 1 bit (which is consumed). */
  unary(): number {
    let zeros = 0;
    for (;;) {
      const rest = (this.byte() << this.bitPos) & 0xff;
      if (rest !== 0) {
        const lead = Math.clz32(rest) - 24;
        zeros += lead;
        this.bitPos += lead + 1;
        if (this.bitPos === 8) {
          this.bitPos = 0;
          this.bytePos++;
        }
        return zeros;
      }
      zeros += 8 - this.bitPos;
      this.bitPos = 0;
      this.bytePos++;
    }
  }

  /** Skips to the next byte boundary. */
  align(): void {
    if (this.bitPos !== 0) {
      this.bitPos = 0;
      this.bytePos++;
    }
  }
}

const crcTable = (poly: number, width: 8 | 16): Uint16Array => {
  const top = 1 << (width - 1);
  const mask = (1 << width) - 1;
  return Uint16Array.from({ length: 256 }, (_, i) => {
    let c = i << (width - 8);
    for (let k = 0; k < 8; k++) c = c & top ? ((c << 1) ^ poly) & mask : (c << 1) & mask;
    return c;
  });
};
const CRC8 = crcTable(0x07, 8);
const CRC16 = crcTable(0x8005, 16);

export const crc8 = (b: Uint8Array, from: number, to: number): number => {
  let c = 0;
  for (let i = from; i < to; i++) c = CRC8[c ^ b[i]!]!;
  return c;
};

export const crc16 = (b: Uint8Array, from: number, to: number): number => {
  let c = 0;
  for (let i = from; i < to; i++) c = ((c << 8) & 0xffff) ^ CRC16[(c >> 8) ^ b[i]!]!;
  return c;
};
