/**
 * The faster paths give the answers of the plain ones: the median by selection equals the median of the
 * sorted values, and the transform equals the discrete Fourier transform by its definition, on both the
 * short (per-frame) and the long (whole-sound) path.
 */
import { describe, expect, it } from 'vitest';

import { fft } from '../../../main/acoustics/fft';
import { kthSmallest, medianInPlace } from '../../../main/acoustics/stats';

const random = (seed: number): (() => number) => {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
};

const sortedMedian = (values: readonly number[]): number => {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : 0.5 * (s[m - 1]! + s[m]!);
};

describe('median by selection', () => {
  it('equals the median of the sorted values, odd and even counts, with ties', () => {
    const next = random(3);
    for (const count of [1, 2, 3, 4, 5, 10, 251, 256, 503]) {
      for (const levels of [3, 1000]) {
        const values = Array.from({ length: count }, () => Math.floor(next() * levels) - levels / 2);
        const buffer = Float64Array.from([...values, 99, 99]);
        expect(medianInPlace(buffer, count)).toBe(sortedMedian(values));
      }
    }
  });

  it('finds every order statistic', () => {
    const next = random(8);
    const values = Array.from({ length: 41 }, () => Math.round(next() * 20));
    const sorted = [...values].sort((a, b) => a - b);
    for (let k = 0; k < values.length; k++)
      expect(kthSmallest(Float64Array.from(values), values.length, k)).toBe(sorted[k]);
  });
});

const dft = (re: Float64Array, im: Float64Array): [Float64Array, Float64Array] => {
  const n = re.length;
  const outRe = new Float64Array(n);
  const outIm = new Float64Array(n);
  for (let k = 0; k < n; k++)
    for (let t = 0; t < n; t++) {
      const angle = (-2 * Math.PI * ((k * t) % n)) / n;
      outRe[k] = outRe[k]! + re[t]! * Math.cos(angle) - im[t]! * Math.sin(angle);
      outIm[k] = outIm[k]! + re[t]! * Math.sin(angle) + im[t]! * Math.cos(angle);
    }
  return [outRe, outIm];
};

describe('the transform', () => {
  it.each([4, 8, 1024, 1 << 15])('equals the DFT by definition at length %i, and inverts', (n) => {
    const next = random(n);
    const re = Float64Array.from({ length: n }, () => next() - 0.5);
    const im = Float64Array.from({ length: n }, () => next() - 0.5);
    const [wantRe, wantIm] = n <= 1024 ? dft(re, im) : [null, null];
    const gotRe = re.slice();
    const gotIm = im.slice();
    fft(gotRe, gotIm);
    if (wantRe !== null && wantIm !== null)
      for (let k = 0; k < n; k++) {
        expect(gotRe[k]).toBeCloseTo(wantRe[k]!, 9);
        expect(gotIm[k]).toBeCloseTo(wantIm[k]!, 9);
      }
    // Bin 1 of the long transform, by definition.
    let bin1Re = 0;
    let bin1Im = 0;
    for (let t = 0; t < n; t++) {
      const angle = (-2 * Math.PI * t) / n;
      bin1Re += re[t]! * Math.cos(angle) - im[t]! * Math.sin(angle);
      bin1Im += re[t]! * Math.sin(angle) + im[t]! * Math.cos(angle);
    }
    expect(gotRe[1]).toBeCloseTo(bin1Re, 9);
    expect(gotIm[1]).toBeCloseTo(bin1Im, 9);
    fft(gotRe, gotIm, true);
    for (let t = 0; t < n; t += 7) {
      expect(gotRe[t]).toBeCloseTo(re[t]!, 12);
      expect(gotIm[t]).toBeCloseTo(im[t]!, 12);
    }
  });
});
