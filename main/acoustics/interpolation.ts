/**
 * Band-limited interpolation of sampled curves, as Praat's manual describes its "sinc" interpolation:
 * the value between samples is the sum of the neighbouring samples (up to `depth` on each side) times
 * sin(πd)/(πd), d the distance in samples, under a raised-cosine window that reaches zero one sample
 * beyond the outermost sample used; where the curve's end leaves only two samples on a side, cubic
 * interpolation, and only one, linear. A maximum is refined by Brent's method (golden section with
 * parabolic steps) on that interpolated curve, within one sample of the sampled maximum.
 */

/** The interpolated value of y at the real index x (0-based); constant beyond the ends. */
export const interpolateSinc = (y: ArrayLike<number>, x: number, depth: number): number => {
  const n = y.length;
  if (n === 0) return NaN;
  if (x <= 0) return y[0]!;
  if (x >= n - 1) return y[n - 1]!;
  const left = Math.floor(x);
  const right = left + 1;
  if (x === left) return y[left]!;
  const d = Math.min(depth, left + 1, n - left - 1);
  if (d <= 0) return y[Math.round(x)]!;
  if (d === 1) return y[left]! + (x - left) * (y[right]! - y[left]!);
  if (d === 2) {
    // Near an end, with one sample to spare on each side: cubic interpolation through the four samples.
    const yl = y[left]!;
    const yr = y[right]!;
    const dyl = 0.5 * (yr - y[left - 1]!);
    const dyr = 0.5 * (y[right + 1]! - yl);
    const fil = x - left;
    const fir = right - x;
    return yl * fir + yr * fil - fil * fir * (0.5 * (dyr - dyl) + (fil - 0.5) * (dyl + dyr - 2 * (yr - yl)));
  }
  // Left half: distances x − i for i = left, left − 1, …, right − d; right half: distances i − x for
  // i = right, …, left + d. Both halves have d terms and are summed in one pass.
  const phaseL0 = Math.PI * (x - left);
  const phaseR0 = Math.PI * (right - x);
  const spanL = x - left + d;
  const spanR = right - x + d;
  let phaseL = phaseL0;
  let phaseR = phaseR0;
  // sin(π(right − x)) = sin(π(x − left)); the window's angles are at most π/3 here (d ≥ 3), where
  // cos = √(1 − sin²) is as exact as Math.cos and cheaper (these calls cost as much as the sum).
  let halfSinL = 0.5 * Math.sin(phaseL0);
  let halfSinR = halfSinL;
  let sL = Math.sin(phaseL0 / spanL);
  let cL = Math.sqrt(1 - sL * sL);
  let sR = Math.sin(phaseR0 / spanR);
  let cR = Math.sqrt(1 - sR * sR);
  const ssL = Math.sin(Math.PI / spanL);
  const csL = Math.sqrt(1 - ssL * ssL);
  const ssR = Math.sin(Math.PI / spanR);
  const csR = Math.sqrt(1 - ssR * ssR);
  let sumL = 0;
  let sumR = 0;
  for (let m = 0; m < d; m++) {
    sumL += (y[left - m]! * halfSinL * (1 + cL)) / phaseL;
    sumR += (y[right + m]! * halfSinR * (1 + cR)) / phaseR;
    phaseL += Math.PI;
    phaseR += Math.PI;
    halfSinL = -halfSinL;
    halfSinR = -halfSinR;
    const cL2 = cL * csL - sL * ssL;
    sL = sL * csL + cL * ssL;
    cL = cL2;
    const cR2 = cR * csR - sR * ssR;
    sR = sR * csR + cR * ssR;
    cR = cR2;
  }
  return sumL + sumR;
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
