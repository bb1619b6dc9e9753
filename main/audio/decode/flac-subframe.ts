/**
 * One FLAC subframe (RFC 9639, section 9.2): a channel's samples for one block, coded as a constant,
 * verbatim, with a fixed predictor (orders 0–4) or a linear predictor (orders 1–32) whose residual is
 * Rice-coded in partitions (4- or 5-bit parameters, with an escape to plain binary). A subframe may say
 * its samples have wasted low bits, which are shifted back in.
 */
import { type BitReader } from './flac-bits';

export class FlacDamage extends Error {}

/** The residual after `order` warm-up samples, into `out` from index `order` (section 9.2.7). */
const readResidual = (r: BitReader, out: Float64Array, blockSize: number, order: number): void => {
  const method = r.bits(2);
  if (method > 1) throw new FlacDamage('reserved residual coding method');
  const paramBits = method === 0 ? 4 : 5;
  const escape = method === 0 ? 15 : 31;
  const partitionOrder = r.bits(4);
  const partitions = 1 << partitionOrder;
  const perPartition = blockSize >> partitionOrder;
  if (perPartition << partitionOrder !== blockSize || perPartition < order)
    throw new FlacDamage('residual partitions do not fit the block');
  let i = order;
  for (let p = 0; p < partitions; p++) {
    const end = (p + 1) * perPartition;
    const k = r.bits(paramBits);
    if (k === escape) {
      const width = r.bits(5);
      for (; i < end; i++) out[i] = r.signed(width);
      continue;
    }
    r.rice(out, i, end, k);
    i = end;
  }
};

/** Fixed predictors of order 0–4 (section 9.2.5), applied in place over the residual. */
const restoreFixed = (s: Float64Array, order: number): void => {
  const n = s.length;
  if (order === 1) for (let i = 1; i < n; i++) s[i]! += s[i - 1]!;
  else if (order === 2) for (let i = 2; i < n; i++) s[i]! += 2 * s[i - 1]! - s[i - 2]!;
  else if (order === 3) for (let i = 3; i < n; i++) s[i]! += 3 * s[i - 1]! - 3 * s[i - 2]! + s[i - 3]!;
  else if (order === 4)
    for (let i = 4; i < n; i++) s[i]! += 4 * s[i - 1]! - 6 * s[i - 2]! + 4 * s[i - 3]! - s[i - 4]!;
};

/** Linear prediction (section 9.2.6): each sample adds Σ cᵢ·s[n−1−i], shifted right (rounded down). */
const restoreLpc = (s: Float64Array, coefs: readonly number[], shift: number): void => {
  const order = coefs.length;
  const inverse = 1 / 2 ** shift; // exact: a power of two
  const c = Float64Array.from(coefs);
  for (let i = order; i < s.length; i++) {
    let sum = 0;
    for (let j = 0; j < order; j++) sum += c[j]! * s[i - 1 - j]!;
    s[i]! += Math.floor(sum * inverse);
  }
};

/** Reads a subframe of `bitDepth` bits per sample (one more for a side channel) into a new array. */
export const readSubframe = (r: BitReader, blockSize: number, bitDepth: number): Float64Array => {
  if (r.bits(1) !== 0) throw new FlacDamage('subframe padding bit set');
  const type = r.bits(6);
  const wasted = r.bits(1) === 1 ? r.unary() + 1 : 0;
  const depth = bitDepth - wasted;
  const s = new Float64Array(blockSize);
  if (type === 0) s.fill(r.signed(depth));
  else if (type === 1) for (let i = 0; i < blockSize; i++) s[i] = r.signed(depth);
  else if (type >= 8 && type <= 12) {
    const order = type - 8;
    for (let i = 0; i < order; i++) s[i] = r.signed(depth);
    readResidual(r, s, blockSize, order);
    restoreFixed(s, order);
  } else if (type >= 32) {
    const order = type - 31;
    for (let i = 0; i < order; i++) s[i] = r.signed(depth);
    const precision = r.bits(4) + 1;
    if (precision === 16) throw new FlacDamage('invalid coefficient precision');
    const shift = r.signed(5);
    if (shift < 0) throw new FlacDamage('negative prediction shift');
    const coefs = Array.from({ length: order }, () => r.signed(precision));
    readResidual(r, s, blockSize, order);
    restoreLpc(s, coefs, shift);
  } else throw new FlacDamage(`reserved subframe type ${type}`);
  if (wasted > 0) {
    const m = 2 ** wasted;
    for (let i = 0; i < blockSize; i++) s[i]! *= m;
  }
  return s;
};
