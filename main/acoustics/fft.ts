/**
 * In-place iterative radix-2 complex FFT over separate real and imaginary arrays (length a power of 2).
 * The twiddle factors cos(2πk/n), sin(2πk/n) are tabulated, and kept for the short lengths that
 * per-frame analyses use thousands of times.
 */
interface Twiddles {
  readonly cos: Float64Array;
  readonly sin: Float64Array;
}

const twiddleCache = new Map<number, Twiddles>();

const twiddles = (n: number): Twiddles => {
  let t = twiddleCache.get(n);
  if (t === undefined) {
    const half = n >> 1;
    const cos = new Float64Array(half);
    const sin = new Float64Array(half);
    if (n < 8) {
      for (let k = 0; k < half; k++) {
        cos[k] = Math.cos((2 * Math.PI * k) / n);
        sin[k] = Math.sin((2 * Math.PI * k) / n);
      }
    } else {
      // The first eighth of the circle, and the rest of the half by symmetry.
      const quarter = n >> 2;
      for (let k = 0; k <= n >> 3; k++) {
        const c = Math.cos((2 * Math.PI * k) / n);
        const s = Math.sin((2 * Math.PI * k) / n);
        cos[k] = c;
        sin[k] = s;
        cos[quarter - k] = s;
        sin[quarter - k] = c;
        cos[quarter + k] = -s;
        sin[quarter + k] = c;
        if (k > 0) {
          cos[half - k] = -c;
          sin[half - k] = s;
        }
      }
    }
    t = { cos, sin };
    // The lengths of per-frame analyses are kept; a whole sound's (silences.ts) is computed once anyway.
    if (n <= 1 << 16) twiddleCache.set(n, t);
  }
  return t;
};

/** Up to this length the arrays stay in the processor's cache, and a stage can run twiddle by twiddle. */
const CACHED_LENGTH = 1 << 14;

const swap = (re: Float64Array, im: Float64Array, i: number, j: number): void => {
  const tr = re[i]!;
  re[i] = re[j]!;
  re[j] = tr;
  const ti = im[i]!;
  im[i] = im[j]!;
  im[j] = ti;
};

const bitReversalCache = new Map<number, Uint32Array>();

/** For each index below n, the index with its log2(n) bits reversed; tabulated for the per-frame lengths. */
const bitReversal = (n: number): Uint32Array => {
  let table = bitReversalCache.get(n);
  if (table === undefined) {
    table = new Uint32Array(n);
    for (let i = 1, j = 0; i < n; i++) {
      let bit = n >> 1;
      for (; j & bit; bit >>= 1) j ^= bit;
      j ^= bit;
      table[i] = j;
    }
    bitReversalCache.set(n, table);
  }
  return table;
};

const reorderBitReversed = (re: Float64Array, im: Float64Array): void => {
  const n = re.length;
  if (n <= CACHED_LENGTH) {
    const reversed = bitReversal(n);
    for (let i = 1; i < n; i++) if (i < reversed[i]!) swap(re, im, i, reversed[i]!);
    return;
  }
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) swap(re, im, i, j);
  }
};

/**
 * The first two stages of butterflies (lengths 2 and 4), whose twiddle factors are 1 and ∓i: the same
 * sums as the general stage, without multiplying by 1 and 0.
 */
const firstTwoStages = (re: Float64Array, im: Float64Array, inverse: boolean): void => {
  const n = re.length;
  for (let a = 0; a < n; a += 4) {
    const r0 = re[a]! + re[a + 1]!;
    const i0 = im[a]! + im[a + 1]!;
    const r1 = re[a]! - re[a + 1]!;
    const i1 = im[a]! - im[a + 1]!;
    const r2 = re[a + 2]! + re[a + 3]!;
    const i2 = im[a + 2]! + im[a + 3]!;
    const r3 = re[a + 2]! - re[a + 3]!;
    const i3 = im[a + 2]! - im[a + 3]!;
    // The second stage: element 3 turned by −i (forward) or +i (inverse).
    const t3r = inverse ? -i3 : i3;
    const t3i = inverse ? r3 : -r3;
    re[a] = r0 + r2;
    im[a] = i0 + i2;
    re[a + 2] = r0 - r2;
    im[a + 2] = i0 - i2;
    re[a + 1] = r1 + t3r;
    im[a + 1] = i1 + t3i;
    re[a + 3] = r1 - t3r;
    im[a + 3] = i1 - t3i;
  }
};

/** One stage of butterflies of length `len`, each twiddle factor read once for every group. */
const stageByTwiddle = (re: Float64Array, im: Float64Array, len: number, sign: number): void => {
  const n = re.length;
  const { cos, sin } = twiddles(n);
  const half = len >> 1;
  const stride = (n / len) | 0;
  for (let k = 0, t = 0; k < half; k++, t += stride) {
    const cr = cos[t]!;
    const ci = sign * sin[t]!;
    for (let a = k; a < n; a += len) {
      const b = a + half;
      const xr = re[b]! * cr - im[b]! * ci;
      const xi = re[b]! * ci + im[b]! * cr;
      re[b] = re[a]! - xr;
      im[b] = im[a]! - xi;
      re[a] = re[a]! + xr;
      im[a] = im[a]! + xi;
    }
  }
};

/** 1/n is a power of two, so the product is the quotient exactly. */
const scaleInverse = (re: Float64Array, im: Float64Array): void => {
  const scale = 1 / re.length;
  for (let i = 0; i < re.length; i++) {
    re[i] = re[i]! * scale;
    im[i] = im[i]! * scale;
  }
};

/** A transform whose arrays stay in the cache: tabulated reordering, the first two stages at once, then twiddle by twiddle. */
const shortTransform = (re: Float64Array, im: Float64Array, inverse: boolean): void => {
  const n = re.length;
  reorderBitReversed(re, im);
  const sign = inverse ? 1 : -1;
  // From length 8 on the twiddles at a quarter turn are exactly 0 and 1 (see twiddles), so the shortcut holds.
  const shortcut = n >= 8;
  if (shortcut) firstTwoStages(re, im, inverse);
  for (let len = shortcut ? 8 : 2; len <= n; len <<= 1) stageByTwiddle(re, im, len, sign);
};

/** A whole sound's transform: group by group, so that each stage walks the arrays once in order. */
const longTransform = (re: Float64Array, im: Float64Array, inverse: boolean): void => {
  const n = re.length;
  reorderBitReversed(re, im);
  const { cos, sin } = twiddles(n);
  const sign = inverse ? 1 : -1;
  for (let len = 2; len <= n; len <<= 1) {
    const half = len >> 1;
    const stride = n / len;
    for (let i = 0; i < n; i += len) {
      for (let k = 0, t = 0; k < half; k++, t += stride) {
        const cr = cos[t]!;
        const ci = sign * sin[t]!;
        const a = i + k;
        const b = a + half;
        const xr = re[b]! * cr - im[b]! * ci;
        const xi = re[b]! * ci + im[b]! * cr;
        re[b] = re[a]! - xr;
        im[b] = im[a]! - xi;
        re[a] = re[a]! + xr;
        im[a] = im[a]! + xi;
      }
    }
  }
};

export const fft = (re: Float64Array, im: Float64Array, inverse = false): void => {
  if (re.length <= CACHED_LENGTH) shortTransform(re, im, inverse);
  else longTransform(re, im, inverse);
  if (inverse) scaleInverse(re, im);
};

export const nextPow2 = (n: number): number => {
  let p = 1;
  while (p < n) p <<= 1;
  return p;
};
