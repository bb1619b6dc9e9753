/**
 * Band-limited interpolation of sampled curves (the "sinc70" and "sinc700" of Praat's manual page
 * "vector value interpolation"; the textbook windowed-sinc reconstruction, e.g. Smith, "Digital Audio
 * Resampling", and Oppenheim & Schafer section 4.6.1): the value at a real index between two samples is
 * the sum of `depth` samples on either side times sin(πd)/(πd), d the distance in samples, under a
 * raised-cosine (Hann) window. What the manual leaves open was measured on Praat's "Sound: Get value at
 * time..." (scripts/validation/experiments/sinc-values.praat, docs/acoustics.md): each side's window
 * falls to zero one sample beyond that side's outermost sample; near the ends the depth shrinks to the
 * samples that exist on the shorter side, so that with two samples there the curve is the Catmull-Rom
 * cubic and with one it is linear. A maximum is refined by Brent's method (golden section with
 * parabolic steps) on that interpolated curve, within one sample of the sampled maximum.
 */

/** The straight line between samples `left` and left + 1, at `fraction` of the way. */
const linearBetween = (y: ArrayLike<number>, left: number, fraction: number): number =>
  y[left]! + fraction * (y[left + 1]! - y[left]!);

/** The Catmull-Rom cubic through samples left − 1 .. left + 2, between the middle two. */
const catmullRomBetween = (y: ArrayLike<number>, left: number, fraction: number): number => {
  const before = y[left - 1]!;
  const from = y[left]!;
  const to = y[left + 1]!;
  const after = y[left + 2]!;
  const slopeTerm = to - before;
  const curveTerm = 2 * before - 5 * from + 4 * to - after;
  const cubicTerm = 3 * (from - to) + after - before;
  return from + 0.5 * fraction * (slopeTerm + fraction * (curveTerm + fraction * cubicTerm));
};

/** cos and sin of a raised-cosine window's angle, stepped by a fixed rotation from sample to sample. */
interface Rotation {
  cos: number;
  sin: number;
  readonly stepCos: number;
  readonly stepSin: number;
}

/** The rotation for a side whose nearest sample lies `firstDistance` away and whose window spans depth + firstDistance. */
const windowRotation = (firstDistance: number, depth: number): Rotation => {
  const step = Math.PI / (depth + firstDistance);
  return {
    cos: Math.cos(firstDistance * step),
    sin: Math.sin(firstDistance * step),
    stepCos: Math.cos(step),
    stepSin: Math.sin(step),
  };
};

const advance = (r: Rotation): void => {
  const cos = r.cos * r.stepCos - r.sin * r.stepSin;
  r.sin = r.sin * r.stepCos + r.cos * r.stepSin;
  r.cos = cos;
};

/**
 * Σ over k < depth of the samples `left` − k and `left` + 1 + k, each times sinc(distance) · window
 * (distance), with the window 0.5 + 0.5·cos(π·distance / (depth + that side's nearest distance)).
 * sin(π·distance) only changes sign from one sample to the next, so it is sin(π·fraction) times ±1;
 * each side's window cosine steps by a fixed rotation; both sides run in one loop.
 */
const windowedSincSum = (y: ArrayLike<number>, left: number, fraction: number, depth: number): number => {
  const before = windowRotation(fraction, depth);
  const after = windowRotation(1 - fraction, depth);
  let sign = 1;
  let sum = 0;
  for (let k = 0; k < depth; k++) {
    const near = y[left - k]! * (0.5 + 0.5 * before.cos);
    const far = y[left + 1 + k]! * (0.5 + 0.5 * after.cos);
    sum += sign * (near / (fraction + k) + far / (1 - fraction + k));
    advance(before);
    advance(after);
    sign = -sign;
  }
  return (sum * Math.sin(Math.PI * fraction)) / Math.PI;
};

/** The interpolated value of y at the real index x (0-based); the end samples' values beyond the ends. */
export const interpolateSinc = (y: ArrayLike<number>, x: number, depth: number): number => {
  const last = y.length - 1;
  if (x <= 0) return y[0]!;
  if (x >= last) return y[last]!;
  const left = Math.floor(x);
  const fraction = x - left;
  if (fraction === 0) return y[left]!;
  const samplesOnShorterSide = Math.min(left + 1, last - left);
  const usedDepth = Math.min(depth, samplesOnShorterSide);
  if (usedDepth <= 1) return linearBetween(y, left, fraction);
  if (usedDepth === 2) return catmullRomBetween(y, left, fraction);
  return windowedSincSum(y, left, fraction, usedDepth);
};

const GOLDEN = 0.5 * (3 - Math.sqrt(5));
const SQRT_EPSILON = Math.sqrt(Number.EPSILON);

/** Brent's minimisation of f on [a, b] to tolerance tol; returns the abscissa and the value there. */
export const minimiseBrent = (
  f: (x: number) => number,
  a0: number,
  b0: number,
  tol: number,
): { x: number; fx: number } => {
  let a = a0;
  let b = b0;
  let x = a + GOLDEN * (b - a);
  let fx = f(x);
  let v = x;
  let w = x;
  let fv = fx;
  let fw = fx;
  for (let iter = 0; iter < 60; iter++) {
    const middle = 0.5 * (a + b);
    const tolAct = SQRT_EPSILON * Math.abs(x) + tol / 3;
    if (Math.abs(x - middle) + 0.5 * (b - a) <= 2 * tolAct) break;
    let step = GOLDEN * (x < middle ? b - x : a - x);
    if (Math.abs(x - w) >= tolAct) {
      const t = (x - w) * (fx - fv);
      let q = (x - v) * (fx - fw);
      let p = (x - v) * q - (x - w) * t;
      q = 2 * (q - t);
      if (q > 0) p = -p;
      else q = -q;
      if (Math.abs(p) < Math.abs(step * q) && p > q * (a - x + 2 * tolAct) && p < q * (b - x - 2 * tolAct))
        step = p / q;
    }
    if (Math.abs(step) < tolAct) step = step > 0 ? tolAct : -tolAct;
    const t = x + step;
    const ft = f(t);
    if (ft <= fx) {
      if (t < x) b = x;
      else a = x;
      v = w;
      w = x;
      x = t;
      fv = fw;
      fw = fx;
      fx = ft;
    } else {
      if (t < x) a = t;
      else b = t;
      if (ft <= fw || w === x) {
        v = w;
        w = t;
        fv = fw;
        fw = ft;
      } else if (ft <= fv || v === x || v === w) {
        v = t;
        fv = ft;
      }
    }
  }
  return { x, fx };
};

/** The maximum of the sinc-interpolated curve within one sample of the sampled maximum at index i. */
export const improveMaximum = (y: ArrayLike<number>, i: number, depth: number): { x: number; y: number } => {
  if (i <= 0) return { x: 0, y: y[0]! };
  if (i >= y.length - 1) return { x: y.length - 1, y: y[y.length - 1]! };
  const { x, fx } = minimiseBrent((u) => -interpolateSinc(y, u, depth), i - 1, i + 1, 1e-10);
  return { x, y: -fx };
};
