/**
 * The bounds every request obeys: one set of zod helpers, used by every contract input.
 *   - every string has a maximum length and refuses NUL; codes, names, labels and other short text
 *     also refuse control characters (C0, DEL, C1) and the invisible marks that reorder text
 *     (bidirectional overrides and isolates), which would make a code look like another;
 *   - every array has a maximum size;
 *   - every number has a minimum and a maximum;
 *   - every object is strict: a field the contract does not know is refused (VALIDATION, naming the
 *     field), never silently dropped.
 * The limits are expressed as regular expressions and `max` checks, so they show in the contract's
 * JSON Schema; test/unit/contract/contract-bounds.test.ts walks every procedure's input and fails
 * when a string, array, number or object lacks them.
 */
import { z } from 'zod';
import { SITE_CODE } from '../team';

/** The longest value of each kind of field. */
export const LIMITS = {
  /** Participant codes. */
  code: 64,
  /** Names of studies and profiles. */
  name: 120,
  /** Batch labels, session labels, search text, confirmations. */
  label: 200,
  /** Free text (a participant's notes). */
  notes: 2000,
  /** File-system paths. */
  path: 4096,
  /** Ids the window or the main process made up (plan ids, export ids). */
  token: 128,
  /** Service addresses. */
  url: 2048,
  /** API keys. */
  apiKey: 4096,
  /** Time-zone names (the longest IANA name is 32 characters). */
  timeZone: 64,
  /** Participant codes in one request (a pasted selection, an export, accounts to create). */
  codes: 10_000,
  /** Paths in one import preview. */
  paths: 10_000,
  /** Ids in one request. */
  ids: 10_000,
  /** Session labels in one export. */
  sessions: 1_000,
} as const;

/**
 * Characters no code, name or label may hold: C0 controls, DEL, C1 controls, the bidirectional marks,
 * embeddings, overrides and isolates, and the zero-width characters and BOM that hide inside text.
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/;
/** The same set with line feed, carriage return and tab allowed (multi-line notes). */
const CONTROL_EXCEPT_LINES =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/;

const none = (set: RegExp) => new RegExp(`^[^${set.source.slice(1, -1)}]*$`);
/** Matches text without any character of CONTROL. */
export const PLAIN = none(CONTROL);
/** Matches text without NUL (what a path may never hold). */
export const NO_NUL = /^[^\u0000]*$/;

/** True when the text holds a character no code, name or label may hold. */
export const hasControlCharacters = (s: string): boolean => CONTROL.test(s);

const PLAIN_MESSAGE =
  'must not contain control characters, invisible characters or marks that change the direction of text';

/** Short text shown to people (codes, names, labels, search): bounded, no control characters. */
export const plainText = (max: number) => z.string().max(max).regex(PLAIN, PLAIN_MESSAGE);
/** Multi-line text (notes): bounded; line breaks and tabs allowed, other control characters not. */
export const multilineText = (max: number) =>
  z.string().max(max).regex(none(CONTROL_EXCEPT_LINES), PLAIN_MESSAGE);
/** A file-system path: bounded, never NUL (every other byte is a legal file name on some system). */
export const pathText = () =>
  z.string().min(1).max(LIMITS.path).regex(NO_NUL, 'must not contain a NUL character');
/** An id the window or the main process made up (letters, digits, dash, underscore, dot). */
export const tokenText = (min = 1) =>
  z
    .string()
    .min(min)
    .max(LIMITS.token)
    .regex(/^[A-Za-z0-9._-]*$/, 'must be letters, digits, dots, dashes or underscores');

/** A participant code as it is typed: trimmed, 1 to 64 characters, no control characters. */
export const codeText = () =>
  z
    .string()
    .trim()
    .min(1, 'Enter a participant code.')
    .max(LIMITS.code, `Participant codes are at most ${LIMITS.code} characters.`)
    .regex(PLAIN, `Participant codes ${PLAIN_MESSAGE}.`);
/** A participant code as it is looked up (a selection, a list to check): bounded, no control characters. */
export const codeRef = () => z.string().min(1).max(LIMITS.code).regex(PLAIN, PLAIN_MESSAGE);
/** A name of a study or a profile: trimmed, 1 to 120 characters, no control characters. */
export const nameText = (empty = 'Enter a name.') =>
  z
    .string()
    .trim()
    .min(1, empty)
    .max(LIMITS.name, `Names are at most ${LIMITS.name} characters.`)
    .regex(PLAIN, `Names ${PLAIN_MESSAGE}.`);
/** A label (batch, session) or a search: at most 200 characters, no control characters. */
export const labelText = () => plainText(LIMITS.label);

/** An array of at most `max` items. */
export const listOf = <T extends z.ZodType>(item: T, max: number) => z.array(item).max(max);

/** An object that refuses fields it does not declare. */
export const strict = z.strictObject;

/** A whole number within the safe range (what every id and count is). */
export const boundedInt = (min: number, max: number) => z.int().min(min).max(max);

/** A site's code (shared/team.ts SITE_CODE). */
export const SiteCode = z.string().max(32).regex(SITE_CODE, 'must be a site code');
