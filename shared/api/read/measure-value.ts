/**
 * One measure value, read against its catalogue entry (measures.ts): kept as received, with a flag for
 * each way it departs from the specification. Only a rating that differs from a listed value by letter
 * case alone is changed (to the listed spelling), and flagged as normalised.
 */
import { dqFlag, jsonText, type DataQualityFlag } from '../data-quality';
import type { MeasureValue } from '../domain';
import type { MeasureDef } from '../measures';

/** The range a value is checked against: the spec's, else our documented reading. */
export const checkedRange = (m: MeasureDef): readonly [number, number] | undefined =>
  m.range ?? m.assumedRange;

/** A received value that is neither number nor string, kept as its JSON text. */
const asText = jsonText;

const rangeWords = (m: MeasureDef, r: readonly [number, number]) =>
  m.kind === 'probability' ? `a probability from ${r[0]} to ${r[1]}` : `from ${r[0]} to ${r[1]}`;

export const readMeasureValue = (
  m: MeasureDef,
  path: string,
  v: unknown,
  flags: DataQualityFlag[],
): MeasureValue => {
  const at = (code: Parameters<typeof dqFlag>[0], expected: string) =>
    flags.push(dqFlag(code, path, v, expected, [m.key]));

  if (m.valueType === 'category') {
    const expected = m.allowed ? `one of ${m.allowed.join(', ')}` : 'text';
    if (typeof v === 'string') {
      if (!m.allowed || m.allowed.includes(v)) return v;
      const same = m.allowed.find((a) => a.toLowerCase() === v.toLowerCase());
      if (same !== undefined) {
        at('rating_case_normalised', expected);
        return same;
      }
      at('rating_not_in_enum', expected);
      return v;
    }
    at('text_expected', expected);
    return typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'number' ? String(v) : asText(v);
  }

  const integer = m.valueType === 'integer';
  const range = checkedRange(m);
  const expected = `${integer ? 'an integer' : 'a number'}${range ? ` ${rangeWords(m, range)}` : m.nonNegative ? ', zero or more' : ''}`;
  if (typeof v === 'string') {
    at('number_expected', expected);
    return v;
  }
  if (typeof v !== 'number') {
    at('number_expected', expected);
    return asText(v);
  }
  if (!Number.isFinite(v)) {
    at('number_not_finite', expected);
    return String(v);
  }
  if (integer && !Number.isInteger(v)) at('integer_expected', expected);
  else if (integer && !Number.isSafeInteger(v)) at('integer_too_large', expected);
  if (range && (v < range[0] || v > range[1]))
    at(m.kind === 'probability' ? 'probability_out_of_range' : 'score_out_of_range', expected);
  else if (!range && m.nonNegative && v < 0) at('negative_value', expected);
  return v;
};
