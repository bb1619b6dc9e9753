/**
 * Resampling to 16 kHz for the converted copies, as a stream: a band-limited interpolator with a
 * Kaiser-windowed sinc kernel, computed as a polyphase filter (R. E. Crochiere and L. R. Rabiner,
 * "Multirate Digital Signal Processing", 1983; the window and its length from J. F. Kaiser's formulas,
 * as given in A. V. Oppenheim and R. W. Schafer, "Discrete-Time Signal Processing", section 7.6).
 *
 * The output sample m sits at input time t = m·M/L (L/M = 16000 / input rate, in lowest terms), with no
 * delay, and is Σ x[k]·g(t − k), where g is the ideal low-pass of the cutoff below windowed to ±HALF
 * taps. Because t − k takes only L distinct fractional parts, the kernel is tabulated once per phase.
 *
 * The response: passband flat to 0.8 of the lower Nyquist frequency (6.4 kHz when going down to 16
 * kHz), stopband from that Nyquist frequency on, attenuated at least {@link STOPBAND_DB} dB, so nothing
 * above 8 kHz folds into the speech band. It is the band libsamplerate's fastest sinc converter (which
 * this replaced for speed) passes, at about the same attenuation.
 */

import { createSimdWorkspace } from './simd-dot';

export const STOPBAND_DB = 90;

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** The zeroth-order modified Bessel function of the first kind, by its power series. */
const besselI0 = (x: number): number => {
  let sum = 1;
  let term = 1;
  const q = (x * x) / 4;
  for (let k = 1; k < 60; k++) {
    term *= q / (k * k);
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return sum;
};

/** Kaiser's β for a stopband attenuation of `a` dB (a > 50). */
const kaiserBeta = (a: number): number => 0.1102 * (a - 8.7);

export interface StreamingResampler {
  /** The output for the next input samples (a fresh array the caller may keep). */
  push(x: Float32Array): Float32Array;
  /** The rest of the output once the input has ended: floor(input samples × 16000 / rate) in all. */
  finish(): Float32Array;
}

interface Kernel {
  /** Taps per phase (input samples under the window). */
  readonly taps: number;
  /** Phase p's taps at [p·taps, (p+1)·taps), applied to x[base − HALF + 1 + j] for j = 0 … taps − 1. */
  readonly table: Float32Array;
  readonly half: number;
}

/** The tabulated kernel for L/M, with cutoff and window length in input samples from Kaiser's formulas. */
const kernelFor = (rateIn: number, rateOut: number, l: number): Kernel => {
  const nyquist = Math.min(rateIn, rateOut) / 2;
  const pass = 0.8 * nyquist;
  const cutoff = (pass + nyquist) / 2 / rateIn; // cycles per input sample
  const transition = (2 * Math.PI * (nyquist - pass)) / rateIn; // radians per input sample
  const length = Math.ceil((STOPBAND_DB - 7.95) / (2.285 * transition)) + 1;
  const half = Math.ceil(length / 2);
  const taps = 2 * half;
  const beta = kaiserBeta(STOPBAND_DB);
  const i0Beta = besselI0(beta);
  const table = new Float32Array(l * taps);
  for (let p = 0; p < l; p++) {
    const frac = p / l;
    let sum = 0;
    const row = new Float64Array(taps);
    for (let j = 0; j < taps; j++) {
      const tau = frac + half - 1 - j; // t − k for k = base − half + 1 + j
      const r = tau / half;
      const w = Math.abs(r) >= 1 ? 0 : besselI0(beta * Math.sqrt(1 - r * r)) / i0Beta;
      const arg = 2 * cutoff * tau;
      const sinc = arg === 0 ? 1 : Math.sin(Math.PI * arg) / (Math.PI * arg);
      row[j] = 2 * cutoff * sinc * w;
      sum += row[j]!;
    }
    for (let j = 0; j < taps; j++) table[p * taps + j] = row[j]! / sum; // each phase passes DC at gain 1
  }
  return { taps, table, half };
};

/**
 * A resampler from `rateIn` (a whole number of Hz) to `rateOut`, fed block by block. The kernel and the
 * input held live in WebAssembly memory, where each output's sum is a SIMD dot product (simd-dot.ts):
 * the kernel's rows padded with zeros to a multiple of four taps, the input after them.
 */
export const createSincResampler = (rateIn: number, rateOut: number): StreamingResampler => {
  const g = gcd(rateIn, rateOut);
  const l = rateOut / g;
  const m = rateIn / g;
  const { taps, table, half } = kernelFor(rateIn, rateOut, l);
  const width = Math.ceil(taps / 4) * 4;
  const held = l * width; // where the input starts in the workspace
  let capacity = width * 4;
  const ws = createSimdWorkspace(held + capacity);
  for (let p = 0; p < l; p++) ws.floats.set(table.subarray(p * taps, (p + 1) * taps), p * width);
  // Input kept: from absolute index `start`, at `held + 0 … filled` of the workspace. Samples before 0
  // are silence (the workspace starts zeroed).
  let start = -half;
  let filled = half;
  let inputSamples = 0;
  let next = 0; // the next output's index
  let phase = 0; // (next · M) mod L
  let base = 0; // floor(next · M / L)

  const append = (x: Float32Array) => {
    if (filled + x.length > capacity) {
      // Drop what no later output reaches (before the next output's window), growing only if needed.
      const keepFrom = Math.max(0, base - half + 1 - start);
      const kept = filled - keepFrom;
      if (kept + x.length > capacity) {
        capacity = (kept + x.length) * 2;
        ws.reserve(held + capacity);
      }
      ws.floats.copyWithin(held, held + keepFrom, held + filled);
      start += keepFrom;
      filled = kept;
    }
    ws.floats.set(x, held + filled);
    filled += x.length;
  };

  /** Every output whose window lies within the samples held, up to `limit` outputs in all. */
  const produce = (limit: number): Float32Array => {
    const lastIndex = start + filled - 1;
    const most = Math.max(0, Math.floor(((lastIndex - half - base + 1) * l) / m) + 1);
    const out = new Float32Array(Math.min(most, Math.max(0, limit - next)));
    let count = 0;
    let b = base;
    let p = phase;
    const offset = held + 1 - half - start;
    while (count < out.length && b + half <= lastIndex) {
      out[count++] = ws.dot(b + offset, p * width, width);
      p += m;
      if (p >= l) {
        b += Math.floor(p / l);
        p %= l;
      }
    }
    base = b;
    phase = p;
    next += count;
    return count === out.length ? out : out.subarray(0, count);
  };

  return {
    push: (x) => {
      inputSamples += x.length;
      append(x);
      return produce(Number.MAX_SAFE_INTEGER);
    },
    finish: () => {
      append(new Float32Array(half + 1));
      return produce(Math.floor((inputSamples * l) / m));
    },
  };
};
