/**
 * The participant timeline's small rules (renderer/src/features/participants/timeline-view.ts): the
 * baseline sizes a researcher may type, and the legend's count of flagged values on the charts shown.
 */
import { describe, expect, it } from 'vitest';
import { baselineSessionsOf, flaggedOn } from '../../../renderer/src/features/participants/timeline-view';

describe('the baseline sessions typed', () => {
  it('are a whole number from 1 to 20', () => {
    expect(baselineSessionsOf('1')).toBe(1);
    expect(baselineSessionsOf('20')).toBe(20);
  });
  it('are refused when out of range, fractional or not a number', () => {
    for (const typed of ['0', '21', '2.5', 'three', '-1']) expect(baselineSessionsOf(typed)).toBeNull();
  });
});

describe('the flagged values counted in the legend', () => {
  const flagged = { flags: ['out_of_range'] };
  const plain = { flags: [] };
  const series: Record<string, { points: { flags: string[] }[] }[]> = {
    jitter: [{ points: [flagged, plain] }, { points: [flagged] }],
    shimmer: [{ points: [flagged, flagged] }],
  };
  it('are those of the charts shown, in every series, from whichever answer holds them', () => {
    expect(flaggedOn(['jitter'], (k) => series[k])).toBe(2);
    expect(flaggedOn(['jitter', 'shimmer'], (k) => series[k])).toBe(4);
  });
  it('count nothing for a measure still on its way', () => {
    expect(flaggedOn(['pitch'], (k) => series[k])).toBe(0);
  });
});
