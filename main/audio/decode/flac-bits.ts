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

  /**
   * Rice-coded residuals with parameter `k` (0–30) into `out[from, to)` (RFC 9639, section 9.2.7): each a
   * unary quotient, then `k` bits of remainder, folded back to a signed number (even n → n/2, odd n →
   * −(n+1)/2). One loop with the position in local variables: this is where a FLAC decode spends its time.
   */
  rice(out: Float64Array, from: number, to: number, k: number): void {
    const buf = this.buf;
    const n = buf.length;
    const scale = 2 ** k;
    let pos = this.bytePos;
    let bit = this.bitPos;
    for (let i = from; i < to; i++) {
      let q = 0;
      for (;;) {
        if (pos >= n) throw new OutOfData();
        const rest = (buf[pos]! << bit) & 0xff;
        if (rest !== 0) {
          const lead = Math.clz32(rest) - 24;
          q += lead;
          bit += lead + 1;
          if (bit === 8) {
            bit = 0;
            pos++;
          }
          break;
        }
        q += 8 - bit;
        bit = 0;
        pos++;
      }
      let rem = 0;
      for (let need = k; need > 0;) {
        if (pos >= n) throw new OutOfData();
        const avail = 8 - bit;
        const take = avail < need ? avail : need;
        rem = rem * (1 << take) + ((buf[pos]! >> (avail - take)) & ((1 << take) - 1));
        need -= take;
        bit += take;
        if (bit === 8) {
          bit = 0;
          pos++;
        }
      }
      const v = q * scale + rem;
      out[i] = v % 2 === 0 ? v / 2 : -(v + 1) / 2;
    }
    this.bytePos = pos;
    this.bitPos = bit;
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
