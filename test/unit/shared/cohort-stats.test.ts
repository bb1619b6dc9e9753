/** The cohort view's bins: one value per participant and bin, median and type-7 quartiles. */
import { describe, expect, it } from 'vitest';
import { binOf, quantile, summariseBins } from '../../../shared/cohort-stats';

describe('cohort bins', () => {
  it('bins visits by number, days and dates by the week', () => {
    expect(binOf('visit', 3)).toBe(3);
    expect([0, 6.9, 7, 13].map((d) => binOf('days', d))).toEqual([0, 0, 7, 7]);
    expect(binOf('date', 7 * 86_400 + 5)).toBe(7 * 86_400);
  });

  it('takes quartiles linearly between order statistics (R type 7)', () => {
    expect(quantile([1, 2, 3, 4], 0.25)).toBe(1.75);
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantile([1, 2, 3, 4], 0.75)).toBe(3.25);
    expect(quantile([5], 0.75)).toBe(5);
    expect(quantile([], 0.5)).toBeNaN();
  });

  it('counts each participant once per bin (the mean of their values there)', () => {
    const s = summariseBins('days', [
      [
        { x: 0, y: 10 },
        { x: 3, y: 20 },
        { x: 8, y: 1 },
      ],
      [{ x: 1, y: 30 }],
      [{ x: 2, y: 40 }],
    ]);
    expect(s).toEqual([
      { bin: 0, at: 3.5, n: 3, median: 30, q1: 22.5, q3: 35 },
      { bin: 7, at: 10.5, n: 1, median: 1, q1: 1, q3: 1 },
    ]);
  });
});
