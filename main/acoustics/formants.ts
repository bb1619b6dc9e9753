/**
 * Formants by Burg's linear prediction, as Praat's manual describes "Sound: To Formant (burg)...": the
 * signal is resampled to twice the maximum formant, pre-emphasised from `preEmphasisHz` (x[i] −= α·x[i−1],
 * α = exp(−2π·F·Δt)), cut into Gaussian-windowed frames of physical length 2 × `windowSeconds` (time step
 * a quarter of the window length), and each frame gets 2 × `maxFormants` LPC coefficients by Burg's
 * method (Press et al., Numerical Recipes, "memcof"). The roots of the prediction polynomial give the
 * formants (frequency = angle · fs / 2π); roots below 50 Hz or above the maximum formant − 50 Hz are
 * dropped.
 */
import { phasePeriod } from './resample';
import { frameGrid, frameTime, sampleAt } from './frames';

export interface FormantSettings {
  readonly maxFormants: number;
  readonly maxFormantHz: number;
  readonly windowSeconds: number;
  readonly preEmphasisHz: number;
  readonly timeStep: number;
}

export const FORMANT_DEFAULTS: FormantSettings = {
  maxFormants: 5,
  maxFormantHz: 5500,
  windowSeconds: 0.025,
  preEmphasisHz: 50,
  timeStep: 0,
};

/** Band-limited (Hann-windowed sinc) resampling to `toRate`; the same duration, round(duration · toRate) samples. */
export const resample = (x: Float32Array, fromRate: number, toRate: number, halfWidth = 30): Float32Array => {
  if (fromRate === toRate) return x;
  const n = Math.round((x.length / fromRate) * toRate);
  const out = new Float32Array(n);
  const ratio = fromRate / toRate;
  const step = Math.min(fromRate, toRate) / fromRate; // sinc argument per input sample
  const span = Math.ceil(halfWidth * Math.max(1, ratio));
  // The kernel tabulated at 256 points per input sample, read with linear interpolation.
  const res = 256;
  const table = new Float64Array(span * res + 2);
  for (let i = 0; i < table.length; i++) {
    const d = i / res;
    const u = d / span;
    const arg = Math.PI * d * step;
    table[i] =
      u >= 1 ? 0 : step * (arg === 0 ? 1 : Math.sin(arg) / arg) * (0.5 + 0.5 * Math.cos(Math.PI * u));
  }
  const weight = (distance: number): number => {
    const q = distance * res;
    const qi = Math.floor(q);
    return qi >= table.length - 1 ? 0 : table[qi]! + (table[qi + 1]! - table[qi]!) * (q - qi);
  };
  // When the rates are in a ratio of small whole numbers, output j sits at the same fraction of an input
  // sample as output j − period, so the 2 · span weights of each of the `period` phases are computed once.
  const period = phasePeriod(fromRate, toRate);
  const taps = 2 * span;
  const phaseWeights = new Float64Array(period * taps);
  const phaseFraction = new Float64Array(period);
  for (let p = 0; p < period; p++) {
    const pos = (p + 0.5) * ratio - 0.5;
    const centre = Math.floor(pos);
    phaseFraction[p] = pos - centre;
    for (let t = 0; t < taps; t++)
      phaseWeights[p * taps + t] = weight(Math.abs(pos - (centre - span + 1 + t)));
  }
  for (let j = 0, p = 0; j < n; j++, p = p + 1 === period ? 0 : p + 1) {
    const pos = (j + 0.5) * ratio - 0.5; // position in input samples
    const centre = Math.floor(pos);
    let acc = 0;
    const k0 = Math.max(0, centre - span + 1);
    const k1 = Math.min(x.length - 1, centre + span);
    if (Math.abs(pos - centre - phaseFraction[p]!) < 1e-9) {
      const w0 = p * taps - (centre - span + 1);
      for (let k = k0; k <= k1; k++) acc += x[k]! * phaseWeights[w0 + k]!;
    } else for (let k = k0; k <= k1; k++) acc += x[k]! * weight(Math.abs(pos - k));
    out[j] = acc;
  }
  return out;
};

/** Working arrays of `burg`, reused from frame to frame (a frame of formant analysis is a few hundred samples). */
export interface BurgScratch {
  ef: Float64Array;
  eb: Float64Array;
  prev: Float64Array;
}

/**
 * Burg's method: prediction error filter a[0..order] (a[0] = 1), or null for a frame without energy.
 * With `scratch`, its arrays are used (and grown when too short) instead of new ones.
 */
export const burg = (x: Float64Array, order: number, scratch?: BurgScratch): Float64Array | null => {
  const n = x.length;
  let ef: Float64Array;
  let eb: Float64Array;
  let prev: Float64Array;
  if (scratch === undefined) {
    ef = new Float64Array(n);
    eb = new Float64Array(n);
    prev = new Float64Array(order + 1);
  } else {
    if (scratch.ef.length < n) {
      scratch.ef = new Float64Array(n);
      scratch.eb = new Float64Array(n);
    }
    if (scratch.prev.length < order + 1) scratch.prev = new Float64Array(order + 1);
    ({ ef, eb, prev } = scratch);
  }
  ef.set(x);
  eb.set(x);
  const a = new Float64Array(order + 1);
  a[0] = 1;
  for (let m = 1; m <= order; m++) {
    let num = 0;
    let den = 0;
    for (let i = m; i < n; i++) {
      num += ef[i]! * eb[i - 1]!;
      den += ef[i]! * ef[i]! + eb[i - 1]! * eb[i - 1]!;
    }
    if (!(den > 0)) return m === 1 ? null : a;
    const k = (-2 * num) / den;
    prev.set(a);
    for (let i = 1; i <= m; i++) a[i] = prev[i]! + k * prev[m - i]!;
    for (let i = n - 1; i >= m; i--) {
      const f = ef[i]!;
      ef[i] = f + k * eb[i - 1]!;
      eb[i] = eb[i - 1]! + k * f;
    }
  }
  return a;
};

/** Complex roots of z^p + c[1] z^(p−1) + … + c[p] (c[0] = 1) by Aberth–Ehrlich iteration. */
export const polynomialRoots = (c: Float64Array): { re: number; im: number }[] => {
  const p = c.length - 1;
  const re = new Float64Array(p);
  const im = new Float64Array(p);
  let radius = 0;
  for (let i = 1; i <= p; i++) radius = Math.max(radius, Math.abs(c[i]!) ** (1 / i));
  radius = Math.max(radius, 1e-3);
  for (let i = 0; i < p; i++) {
    const ang = (2 * Math.PI * i) / p + 0.4;
    re[i] = radius * Math.cos(ang);
    im[i] = radius * Math.sin(ang);
  }
  for (let iter = 0; iter < 80; iter++) {
    let moved = 0;
    for (let i = 0; i < p; i++) {
      // p(z) and p'(z) by Horner
      let pr = 1;
      let pi = 0;
      let dr = 0;
      let di = 0;
      const zr = re[i]!;
      const zi = im[i]!;
      for (let k = 1; k <= p; k++) {
        const ndr = dr * zr - di * zi + pr;
        const ndi = dr * zi + di * zr + pi;
        dr = ndr;
        di = ndi;
        const npr = pr * zr - pi * zi + c[k]!;
        const npi = pr * zi + pi * zr;
        pr = npr;
        pi = npi;
      }
      // ratio = p / p'
      const dd = dr * dr + di * di;
      if (dd === 0) continue;
      const rr = (pr * dr + pi * di) / dd;
      const ri = (pi * dr - pr * di) / dd;
      // sum of 1 / (z_i − z_j)
      let sr = 0;
      let si = 0;
      for (let j = 0; j < p; j++) {
        if (j === i) continue;
        const ar = zr - re[j]!;
        const ai = zi - im[j]!;
        const aa = ar * ar + ai * ai;
        if (aa === 0) continue;
        sr += ar / aa;
        si += -ai / aa;
      }
      // w = ratio / (1 − ratio · sum)
      const br = 1 - (rr * sr - ri * si);
      const bi = -(rr * si + ri * sr);
      const bb = br * br + bi * bi;
      if (bb === 0) continue;
      const wr = (rr * br + ri * bi) / bb;
      const wi = (ri * br - rr * bi) / bb;
      re[i] = zr - wr;
      im[i] = zi - wi;
      moved = Math.max(moved, Math.hypot(wr, wi));
    }
    if (moved < 1e-12 * radius) break;
  }
  return Array.from({ length: p }, (_, i) => ({ re: re[i]!, im: im[i]! }));
};

/** Formant frequencies (Hz, ascending) of every frame. */
export const toFormants = (
  x: Float32Array,
  fs: number,
  s: FormantSettings = FORMANT_DEFAULTS,
): number[][] => {
  const rate = 2 * s.maxFormantHz;
  const y = resample(x, fs, rate);
  const alpha = Math.exp((-2 * Math.PI * s.preEmphasisHz) / rate);
  for (let i = y.length - 1; i > 0; i--) y[i] = y[i]! - alpha * y[i - 1]!;
  const physical = 2 * s.windowSeconds;
  const dt = s.timeStep > 0 ? s.timeStep : s.windowSeconds / 4;
  const grid = frameGrid(y.length, rate, physical, dt);
  const n = Math.round(physical * rate);
  const win = new Float64Array(n);
  const edge = Math.exp(-12);
  for (let j = 0; j < n; j++) {
    const u = (j + 0.5) / n - 0.5;
    win[j] = (Math.exp(-48 * u * u) - edge) / (1 - edge);
  }
  const order = 2 * s.maxFormants;
  const frame = new Float64Array(n);
  const scratch: BurgScratch = {
    ef: new Float64Array(n),
    eb: new Float64Array(n),
    prev: new Float64Array(order + 1),
  };
  const out: number[][] = [];
  for (let i = 0; i < grid.count; i++) {
    const start = sampleAt(frameTime(grid, i), rate) - Math.floor(n / 2);
    for (let j = 0; j < n; j++) {
      const k = start + j;
      frame[j] = (k >= 0 && k < y.length ? y[k]! : 0) * win[j]!;
    }
    const a = burg(frame, order, scratch);
    if (a === null) {
      out.push([]);
      continue;
    }
    const freqs: number[] = [];
    for (const z of polynomialRoots(a)) {
      if (z.im <= 0) continue;
      const f = (Math.atan2(z.im, z.re) * rate) / (2 * Math.PI);
      if (f >= 50 && f <= s.maxFormantHz - 50) freqs.push(f);
    }
    freqs.sort((p, q) => p - q);
    out.push(freqs.slice(0, s.maxFormants));
  }
  return out;
};
