/** Seeded randomness and small numeric helpers for the sandbox's simulation (simulate.ts). */
import { createHash } from 'node:crypto';

/** sfc32 over 128 bits of a SHA-256 of the parts; warmed up so nearby seeds decorrelate. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(...parts: string[]) {
    const h = createHash('sha256').update(parts.join('\u0000')).digest();
    this.a = h.readUInt32LE(0);
    this.b = h.readUInt32LE(4);
    this.c = h.readUInt32LE(8);
    this.d = h.readUInt32LE(12);
    for (let i = 0; i < 12; i++) this.uniform();
  }

  /** Uniform in [0, 1). */
  uniform(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  between(lo: number, hi: number): number {
    return lo + (hi - lo) * this.uniform();
  }

  /** Standard normal (Box–Muller; 1 − u keeps the logarithm finite). */
  normal(): number {
    const u = 1 - this.uniform();
    const v = this.uniform();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}

/** A uniform in [0, 1) from one hash, for single yes/no decisions. */
export const hashUniform = (...parts: string[]): number =>
  createHash('sha256').update(parts.join('\u0000')).digest().readUInt32LE(0) / 4294967296;

export const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));
export const round = (x: number, decimals: number): number => {
  const f = 10 ** decimals;
  const r = Math.round(x * f) / f;
  return Object.is(r, -0) ? 0 : r;
};
export const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));
