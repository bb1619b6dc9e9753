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

export const fft = (re: Float64Array, im: Float64Array, inverse = false): void => {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      const tr = re[i]!;
      re[i] = re[j]!;
      re[j] = tr;
      const ti = im[i]!;
      im[i] = im[j]!;
      im[j] = ti;
    }
  }
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
  if (inverse) {
    for (let i = 0; i < n; i++) {
      re[i] = re[i]! / n;
      im[i] = im[i]! / n;
    }
  }
};

export const nextPow2 = (n: number): number => {
  let p = 1;
  while (p < n) p <<= 1;
  return p;
};
