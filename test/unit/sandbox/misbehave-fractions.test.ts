/**
 * `fractional_integers` sends whole-number indicators and scores as fractions and nothing else: each
 * value stays in its range, so the client flags `integer_expected` and never `score_out_of_range`,
 * whatever value the simulation gave (a score of 0 as well as one at the top).
 */
import { expect, it } from 'vitest';
import { measuresOf, type MeasureDef } from '../../../shared/api/measures';
import { ANALYSIS_TYPES } from '../../../shared/api/vocabulary';
import { loosenAnalysis, Misbehave } from '../../../main/sandbox/misbehave';

const FRACTIONS = Misbehave.parse({ enabled: ['fractional_integers'], share: 1 });

const rangeOf = (d: MeasureDef): readonly [number, number] => d.range ?? d.assumedRange ?? [0, Infinity];
const integers = ANALYSIS_TYPES.flatMap((type) =>
  measuresOf(type)
    .filter((d) => d.valueType === 'integer' && d.path['v1.3'] !== undefined)
    .map((d) => ({ type, d })),
);

/** A v1.3 answer whose every whole-number measure of `type` holds `at(range)`. */
const answer = (pick: (r: readonly [number, number]) => number) => {
  const analysis: Record<string, Record<string, unknown>> = {};
  for (const { type, d } of integers) {
    let o = (analysis[type] ??= { status: 'completed' });
    const path = d.path['v1.3']!;
    for (const k of path.slice(0, -1)) o = (o[k] ??= {}) as Record<string, unknown>;
    o[path.at(-1)!] = pick(rangeOf(d));
  }
  return { analysis };
};

const valueAt = (body: unknown, type: string, d: MeasureDef): unknown =>
  d.path['v1.3']!.reduce<unknown>(
    (o, k) => (o as Record<string, unknown>)[k],
    (body as { analysis: Record<string, unknown> }).analysis[type],
  );

it.each([
  ['at the bottom of its range', (r: readonly [number, number]) => r[0]],
  ['at the top of its range', (r: readonly [number, number]) => (Number.isFinite(r[1]) ? r[1] : 100)],
])('a whole number %s becomes a fraction inside its range', (_, pick) => {
  expect(integers.length).toBeGreaterThan(0);
  for (let n = 0; n < 20; n++) {
    const key = { audioSha256: `sha-${n}`, recordedAt: `2025-01-0${(n % 9) + 1}T10:00:00Z` };
    const out = loosenAnalysis(FRACTIONS, 'v1.3', answer(pick), key, []);
    expect(out.applied).toEqual(['fractional_integers']);
    for (const { type, d } of integers) {
      const v = valueAt(out.body, type, d) as number;
      expect(Number.isInteger(v), `${d.key} = ${v}`).toBe(false);
      expect(v, d.key).toBeGreaterThanOrEqual(rangeOf(d)[0]);
      expect(v, d.key).toBeLessThanOrEqual(rangeOf(d)[1]);
    }
  }
});
