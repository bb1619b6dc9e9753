/**
 * Filename patterns: the researcher describes how their recordings are named and the import reads the
 * participant, session and recording time from each name, with a preview before anything is sent.
 *
 * Placeholders:
 * - `{participant}` (required): the participant's code, at least one character.
 * - `{session}` (optional): the session label, at least one character.
 * - `{date:FORMAT}`: FORMAT holds YYYY, MM and DD once each, in any order, with any literal separators
 *   (e.g. `YYYYMMDD`, `YYYY-MM-DD`, `DD.MM.YYYY`).
 * - `{time:FORMAT}` (needs a `{date}`): HH and mm once each, optionally ss (e.g. `HHmm`, `HH-mm-ss`).
 * - `*`: any text, possibly none.
 * Everything else is literal text, matched without regard to letter case (so `.wav` matches `.WAV`).
 * Each placeholder may appear only once. Where a name could be split more than one way, `{participant}`
 * and `{session}` take the shortest text that still lets the rest of the name match.
 *
 * Only the file's own name is matched (any folder part is dropped). Dates without a time are midnight UTC;
 * a time is read in the `timeZone` given when compiling (an IANA name), or as UTC when none is given.
 * A name with an impossible date or time (month 13, 25:00, a local time skipped by daylight saving)
 * does not match.
 */
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import { isTimeZone } from '../../shared/time-zone';
import { isValidWallTime, wallAsUtc, zonedWallTimeToUtc, type WallTime } from '../wall-time';

export interface CompiledPattern {
  readonly pattern: string;
  readonly regex: RegExp;
  readonly hasSession: boolean;
  readonly hasDate: boolean;
  readonly hasTime: boolean;
  readonly timeZone: string | null;
}

export interface FilenameMatch {
  readonly participantCode: string;
  readonly session: string | null;
  /** ISO 8601 UTC (…Z); midnight UTC when the pattern has a date but no time; null without a date. */
  readonly recordedAt: string | null;
}

export type PreviewEntry =
  | ({ readonly fileName: string; readonly matched: true } & FilenameMatch)
  | { readonly fileName: string; readonly matched: false; readonly reason: string };

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

const formatToRegex = (
  format: string,
  tokens: Record<string, string>,
  required: readonly string[],
  what: string,
  example: string,
): Result<string, string> => {
  const tokenRe = new RegExp(Object.keys(tokens).join('|'), 'g');
  const used = new Set<string>();
  let out = '';
  let last = 0;
  for (const m of format.matchAll(tokenRe)) {
    if (used.has(m[0])) return err(`The ${what} format "${format}" uses ${m[0]} twice.`);
    used.add(m[0]);
    out += escapeRegExp(format.slice(last, m.index)) + tokens[m[0]];
    last = m.index + m[0].length;
  }
  out += escapeRegExp(format.slice(last));
  const missing = required.filter((t) => !used.has(t));
  if (missing.length > 0)
    return err(`The ${what} format "${format}" needs ${missing.join(', ')} (for example ${example}).`);
  return ok(out);
};

export function compileFilenamePattern(
  pattern: string,
  opts: { timeZone?: string } = {},
): Result<CompiledPattern, string> {
  if (opts.timeZone !== undefined && !isTimeZone(opts.timeZone))
    return err(
      `"${opts.timeZone}" is not a time zone this computer knows (expected an IANA name such as Europe/Berlin).`,
    );
  if (pattern.trim() === '')
    return err(
      'The pattern is empty; describe the names, for example {participant}_{session}_{date:YYYYMMDD}.wav.',
    );
  const seen = new Set<string>();
  let source = '';
  let i = 0;
  while (i < pattern.length) {
    const ch = pattern[i];
    if (ch === '*') {
      source += '.*?';
      i += 1;
      continue;
    }
    if (ch === '}') return err(`The pattern has a "}" without a matching "{" (position ${i + 1}).`);
    if (ch !== '{') {
      let j = i;
      while (j < pattern.length && !'{}*'.includes(pattern[j] ?? '')) j += 1;
      source += escapeRegExp(pattern.slice(i, j));
      i = j;
      continue;
    }
    const close = pattern.indexOf('}', i);
    if (close < 0) return err(`The pattern has a "{" that is never closed (position ${i + 1}).`);
    const inner = pattern.slice(i + 1, close);
    const colon = inner.indexOf(':');
    const name = (colon < 0 ? inner : inner.slice(0, colon)).trim();
    const format = colon < 0 ? null : inner.slice(colon + 1);
    if (!['participant', 'session', 'date', 'time'].includes(name)) {
      return err(
        `Unknown placeholder {${inner}}; use {participant}, {session}, {date:FORMAT} or {time:FORMAT}.`,
      );
    }
    if (seen.has(name)) return err(`The placeholder {${name}} appears more than once.`);
    seen.add(name);
    if (name === 'participant' || name === 'session') {
      if (format !== null) return err(`{${name}} takes no format; write {${name}}.`);
      source += `(?<${name}>[^/\\\\]+?)`;
    } else if (name === 'date') {
      if (format === null || format === '')
        return err('{date} needs a format, for example {date:YYYYMMDD} or {date:YYYY-MM-DD}.');
      const r = formatToRegex(
        format,
        { YYYY: '(?<year>\\d{4})', MM: '(?<month>\\d{2})', DD: '(?<day>\\d{2})' },
        ['YYYY', 'MM', 'DD'],
        'date',
        'YYYYMMDD',
      );
      if (!r.ok) return r;
      source += r.value;
    } else {
      if (format === null || format === '')
        return err('{time} needs a format, for example {time:HHmm} or {time:HH-mm-ss}.');
      const r = formatToRegex(
        format,
        { HH: '(?<hour>\\d{2})', mm: '(?<minute>\\d{2})', ss: '(?<second>\\d{2})' },
        ['HH', 'mm'],
        'time',
        'HHmm',
      );
      if (!r.ok) return r;
      source += r.value;
    }
    i = close + 1;
  }
  if (!seen.has('participant'))
    return err(
      'The pattern needs a {participant} placeholder, for example {participant}_{date:YYYYMMDD}.wav.',
    );
  if (seen.has('time') && !seen.has('date')) return err('{time} needs a {date} in the same pattern.');
  return ok({
    pattern,
    regex: new RegExp(`^${source}$`, 'iu'),
    hasSession: seen.has('session'),
    hasDate: seen.has('date'),
    hasTime: seen.has('time'),
    timeZone: opts.timeZone ?? null,
  });
}

const baseName = (fileName: string): string =>
  fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1);

const matchWithReason = (compiled: CompiledPattern, fileName: string): Result<FilenameMatch, string> => {
  const m = compiled.regex.exec(baseName(fileName));
  const g = m?.groups;
  if (g === undefined) return err('does not match');
  const participantCode = (g['participant'] ?? '').trim();
  if (participantCode === '') return err('does not match (empty participant code)');
  const session = (g['session'] ?? '').trim();
  let recordedAt: string | null = null;
  if (compiled.hasDate) {
    const w: WallTime = {
      year: Number(g['year']),
      month: Number(g['month']),
      day: Number(g['day']),
      hour: Number(g['hour'] ?? '0'),
      minute: Number(g['minute'] ?? '0'),
      second: Number(g['second'] ?? '0'),
    };
    if (!isValidWallTime(w)) return err('does not match (not a real date or time)');
    const utc = wallAsUtc(w);
    const t = compiled.hasTime && compiled.timeZone !== null ? zonedWallTimeToUtc(w, compiled.timeZone) : utc;
    if (t === null)
      return err(`does not match (that local time does not exist in ${compiled.timeZone ?? 'UTC'})`);
    recordedAt = new Date(t).toISOString();
  }
  return ok({ participantCode, session: session === '' ? null : session, recordedAt });
};

/** The participant, session and time read from a file name, or null when the name does not fit. */
export function matchFilename(compiled: CompiledPattern, fileName: string): FilenameMatch | null {
  const r = matchWithReason(compiled, fileName);
  return r.ok ? r.value : null;
}

/** One entry per file name, in order, for the preview table. */
export function previewPattern(compiled: CompiledPattern, fileNames: readonly string[]): PreviewEntry[] {
  return fileNames.map((fileName) => {
    const r = matchWithReason(compiled, fileName);
    return r.ok
      ? { fileName, matched: true as const, ...r.value }
      : { fileName, matched: false as const, reason: r.error };
  });
}
