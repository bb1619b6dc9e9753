/**
 * Tolerant readers for single members of an answer. Each returns what it could read and pushes a
 * data-quality flag when the member departs from the specification; none of them throws or refuses.
 * Absent and null are the same: "not reported", flagged only when the specification requires the member.
 * The formats (UUID, date-time) are the wire schemas' own (wire-common.ts).
 */
import { dqFlag, type DataQualityFlag } from '../data-quality';
import { DateTime, Uuid } from '../wire-common';

export type Flags = DataQualityFlag[];
export type Obj = Readonly<Record<string, unknown>>;

export const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
export const isAbsent = (v: unknown): v is null | undefined => v === undefined || v === null;
export const join = (base: string, key: string): string => (base ? `${base}.${key}` : key);

/** A member the specification requires, absent or null. */
export const missing = (flags: Flags, path: string, required: boolean, measures: readonly string[] = []) => {
  if (required) flags.push(dqFlag('required_missing', path, undefined, 'present', measures));
};

/** Members of `obj` that the specification does not list at this level, each flagged `unknown_field`. */
export const flagUnknownMembers = (
  flags: Flags,
  base: string,
  obj: Obj,
  known: ReadonlySet<string>,
): void => {
  for (const [k, v] of Object.entries(obj))
    if (!known.has(k)) flags.push(dqFlag('unknown_field', join(base, k), v, 'no such member'));
};

const text = (flags: Flags, path: string, v: unknown, required: boolean): string | null => {
  if (isAbsent(v)) {
    missing(flags, path, required);
    return null;
  }
  if (typeof v === 'string') return v;
  flags.push(dqFlag('text_expected', path, v, 'text'));
  return null;
};

export const readText = text;

export const readUuid = (flags: Flags, path: string, v: unknown, required: boolean): string | null => {
  const s = text(flags, path, v, required);
  if (s !== null && !Uuid.safeParse(s).success)
    flags.push(dqFlag('not_a_uuid', path, s, 'an identifier in UUID format'));
  return s;
};

export const readDateTime = (flags: Flags, path: string, v: unknown, required: boolean): string | null => {
  const s = text(flags, path, v, required);
  if (s !== null && !DateTime.safeParse(s).success)
    flags.push(dqFlag('not_a_date_time', path, s, 'an ISO 8601 date-time with a time zone'));
  return s;
};

export interface NumberRule {
  readonly integer: boolean;
  readonly nonNegative?: boolean;
}

/**
 * A number as received. A non-number (text, true, an object) gives null here, with the received value in
 * the flag; a number too large for JavaScript (1e400) likewise. Fractions where an integer is expected,
 * unsafe integers and negatives where none can be are kept and flagged.
 */
export const readNumber = (
  flags: Flags,
  path: string,
  v: unknown,
  required: boolean,
  rule: NumberRule,
): number | null => {
  if (isAbsent(v)) {
    missing(flags, path, required);
    return null;
  }
  const expected = rule.integer ? 'an integer' : 'a number';
  if (typeof v !== 'number') {
    flags.push(dqFlag('number_expected', path, v, expected));
    return null;
  }
  if (!Number.isFinite(v)) {
    flags.push(dqFlag('number_not_finite', path, v, expected));
    return null;
  }
  if (rule.integer && !Number.isInteger(v)) flags.push(dqFlag('integer_expected', path, v, expected));
  else if (rule.integer && !Number.isSafeInteger(v))
    flags.push(dqFlag('integer_too_large', path, v, 'an integer within ±2^53'));
  if (rule.nonNegative && v < 0) flags.push(dqFlag('negative_value', path, v, 'zero or more'));
  return v;
};
