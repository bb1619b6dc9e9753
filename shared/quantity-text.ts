/**
 * A number with its unit in text the main process writes for the researcher and stores (a flag's
 * "expected", a finding's message): rounded to the quantity's precision, never the raw binary
 * fraction ("68.3 s", not "68.29599999999996 s"). Locale-free, as stored text is read everywhere; the
 * window's own numbers go through renderer/src/lib/format.ts.
 */
export const PRECISION = {
  /** Seconds of audio or speech: a tenth, as the window shows them. */
  s: 1,
  Hz: 0,
  bytes: 0,
} as const;

export type QuantityUnit = keyof typeof PRECISION;

export const quantityText = (value: number, unit: QuantityUnit): string =>
  `${value.toFixed(PRECISION[unit])} ${unit}`;
