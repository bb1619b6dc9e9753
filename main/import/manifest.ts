/**
 * Import manifest: a CSV that maps each study recording to a participant, a recording time and a
 * session, read before anything is uploaded so the researcher can preview and correct it.
 *
 * Format (also in docs/manifest.md):
 * - UTF-8, with or without a byte-order mark; CRLF, LF or CR line ends (even mixed).
 * - Delimiter: comma or semicolon, detected from the header line (whichever occurs more often outside
 *   quotes; comma on a tie). Fields may be quoted ("…") and then contain delimiters, line breaks and
 *   doubled quotes ("").
 * - A header row is required. Header names are matched case-insensitively, surrounding spaces trimmed:
 *   - `file` (required): the recording's path, relative to the manifest's folder or absolute.
 *   - `participant` (required): the participant's pseudonymous code; trimmed, case kept.
 *   - `recorded_at` (optional): one of
 *       `2024-03-05T09:30:00Z`, `2024-03-05T09:30:00+01:00` (ISO 8601 with Z or an offset; a space may
 *       replace the T; seconds and fractions optional),
 *       `2024-03-05` (a plain date: midnight UTC),
 *       `2024-03-05 09:30[:00]` (a local time, read in the IANA time zone the caller passes, e.g.
 *       `Europe/Berlin`; without a zone such a row is an error).
 *     Local times that do not exist (skipped by a daylight-saving change) are an error; local times that
 *     occur twice (clocks turned back) take the earlier of the two instants.
 *   - `session` (optional): a free label; empty means none. Spaces at its start or end are removed, and
 *     the preview warns where that happened (a label that differs from earlier imports splits sessions).
 *   Other columns are ignored and listed in a notice.
 * - Fully empty lines are skipped. Line numbers in messages are the line of the file where the row starts
 *   (the header is line 1), so a quoted field with line breaks does not shift later numbers.
 * - The same file twice (after resolving the path) is an error on the later line.
 */
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { isAbsolute, normalize, resolve } from 'node:path';
import { err, ok } from '../../shared/result';
import type { Result } from '../../shared/result';
import { isTimeZone } from '../../shared/time-zone';
import { isValidWallTime, wallAsUtc, zonedWallTimeToUtc, type WallTime } from '../wall-time';

export interface ManifestRow {
  /** Line of the manifest where this row starts (header = 1). */
  readonly line: number;
  /** Absolute, normalised path of the recording. */
  readonly filePath: string;
  readonly participantCode: string;
  /** ISO 8601 in UTC with Z, or null when the manifest gives none. */
  readonly recordedAt: string | null;
  readonly session: string | null;
}

export interface ManifestRowError {
  readonly line: number;
  readonly message: string;
}

export interface ManifestParse {
  readonly rows: ManifestRow[];
  readonly rowErrors: ManifestRowError[];
  readonly notices: string[];
}

export type ManifestProblemKind =
  'empty' | 'malformed_csv' | 'missing_columns' | 'duplicate_columns' | 'invalid_time_zone';

/** The whole manifest is refused. */
export interface ManifestProblem {
  readonly kind: ManifestProblemKind;
  readonly message: string;
  /** Header names found in the file that belong to the manifest's vocabulary (others are only counted). */
  readonly columnsFound: string[];
}

export interface ManifestOptions {
  /** Folder of the manifest file: relative paths are resolved against it. */
  readonly baseDir: string;
  /** IANA zone (e.g. "Europe/Berlin") for `recorded_at` values without Z or offset. */
  readonly timeZone?: string;
}

const KNOWN_COLUMNS = ['file', 'participant', 'recorded_at', 'session'] as const;
type KnownColumn = (typeof KNOWN_COLUMNS)[number];
const REQUIRED_COLUMNS: readonly KnownColumn[] = ['file', 'participant'];

const problem = (
  kind: ManifestProblemKind,
  message: string,
  columnsFound: string[] = [],
): ManifestProblem => ({ kind, message, columnsFound });

/** Counts the delimiter candidates on the first line, outside quotes. */
const detectDelimiter = (text: string): ',' | ';' => {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && ch === ',') commas += 1;
    else if (!quoted && ch === ';') semicolons += 1;
  }
  return semicolons > commas ? ';' : ',';
};

/** 1-based line number of a UTF-8 byte offset (CRLF, LF and lone CR each end a line). */
const lineAt = (bytes: Buffer, offset: number): number => {
  let line = 1;
  for (let i = 0; i < offset && i < bytes.length; i += 1) {
    if (bytes[i] === 0x0a) line += 1;
    else if (bytes[i] === 0x0d && bytes[i + 1] !== 0x0a) line += 1;
  }
  return line;
};

interface RawRecord {
  readonly line: number;
  readonly fields: string[];
}

export function parseManifest(text: string, opts: ManifestOptions): Result<ManifestParse, ManifestProblem> {
  if (opts.timeZone !== undefined && !isTimeZone(opts.timeZone)) {
    return err(
      problem(
        'invalid_time_zone',
        `"${opts.timeZone}" is not a time zone this computer knows (expected an IANA name such as Europe/Berlin).`,
      ),
    );
  }
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (body.trim() === '')
    return err(
      problem(
        'empty',
        'The manifest is empty: it needs a header row (file, participant, …) and one row per recording.',
      ),
    );

  const bytes = Buffer.from(body, 'utf8');
  let parsed: { record: string[]; info: { bytes: number } }[];
  try {
    parsed = parse(bytes, {
      delimiter: detectDelimiter(body),
      record_delimiter: ['\r\n', '\n', '\r'],
      info: true,
      relax_column_count: true,
    }) as unknown as typeof parsed;
  } catch (e: unknown) {
    const line = typeof (e as { lines?: unknown }).lines === 'number' ? (e as { lines: number }).lines : null;
    // csv-parse's own message quotes the field it choked on: only its code is told, never the content.
    const code = (e as { code?: unknown }).code;
    const detail = typeof code === 'string' && /^CSV_[A-Z_]+$/.test(code) ? ` (${code})` : '';
    return err(
      problem(
        'malformed_csv',
        `The manifest is not valid CSV${line === null ? '' : ` near line ${line}`}${detail}. Check for an unclosed quote.`,
      ),
    );
  }

  const records: RawRecord[] = [];
  let start = 0;
  for (const { record, info } of parsed) {
    if (record.some((f) => f.trim() !== '')) records.push({ line: lineAt(bytes, start), fields: record });
    start = info.bytes;
  }
  const header = records.shift();
  if (header === undefined) return err(problem('empty', 'The manifest has no header row.'));

  const names = header.fields.map((h) => h.trim());
  // Only header names of the manifest's vocabulary are ever repeated back: a file that is no manifest
  // (a key file, /etc/passwd) must not have its first line echoed in an error.
  const columnsFound = names.filter((n) => (KNOWN_COLUMNS as readonly string[]).includes(n.toLowerCase()));
  const otherColumns = names.filter((n) => n !== '').length - columnsFound.length;
  const index = new Map<KnownColumn, number>();
  const ignored: string[] = [];
  for (const [i, name] of names.entries()) {
    const key = name.toLowerCase();
    const known = KNOWN_COLUMNS.find((k) => k === key);
    if (known === undefined) {
      if (name !== '') ignored.push(name);
    } else if (index.has(known)) {
      return err(
        problem(
          'duplicate_columns',
          `The column "${known}" appears more than once in the header; keep only one.`,
          columnsFound,
        ),
      );
    } else {
      index.set(known, i);
    }
  }
  const missing = REQUIRED_COLUMNS.filter((c) => !index.has(c));
  if (missing.length > 0) {
    const list = missing.map((m) => `"${m}"`).join(' and ');
    const known = columnsFound.map((c) => `"${c}"`).join(', ');
    const others = otherColumns === 0 ? '' : `${otherColumns} other column${otherColumns === 1 ? '' : 's'}`;
    const found = [known, others].filter((x) => x !== '').join(' and ') || 'none';
    return err(
      problem(
        'missing_columns',
        `The manifest has no ${list} column${missing.length > 1 ? 's' : ''}. Columns found: ${found}.`,
        columnsFound,
      ),
    );
  }

  const notices: string[] = [];
  if (ignored.length > 0)
    notices.push(
      `Ignored column${ignored.length > 1 ? 's' : ''} not used by the import: ${ignored.join(', ')}.`,
    );

  const raw = (r: RawRecord, c: KnownColumn): string => {
    const i = index.get(c);
    return i === undefined ? '' : (r.fields[i] ?? '');
  };
  const cell = (r: RawRecord, c: KnownColumn): string => raw(r, c).trim();
  // Session labels with spaces at their start or end are stored trimmed; the preview says so.
  const trimmedSessions: string[] = [];
  const rows: ManifestRow[] = [];
  const rowErrors: ManifestRowError[] = [];
  const seen = new Map<string, number>();
  for (const r of records) {
    const problems: string[] = [];
    const file = cell(r, 'file');
    const participantCode = cell(r, 'participant');
    const when = cell(r, 'recorded_at');
    const session = cell(r, 'session');
    if (session !== '' && session !== raw(r, 'session'))
      trimmedSessions.push(`line ${r.line} ("${raw(r, 'session')}" became "${session}")`);
    let filePath: string | null = null;
    if (file === '') problems.push("the file is empty; give the recording's path");
    else {
      filePath = normalize(isAbsolute(file) ? file : resolve(opts.baseDir, file));
      const earlier = seen.get(filePath);
      if (earlier !== undefined) problems.push(`the file "${file}" is already listed on line ${earlier}`);
    }
    if (participantCode === '') problems.push('the participant code is empty');
    let recordedAt: string | null = null;
    if (when !== '') {
      const d = parseRecordedAt(when, opts.timeZone);
      if (d.ok) recordedAt = d.value;
      else problems.push(d.error);
    }
    if (problems.length > 0 || filePath === null) {
      const text = problems.join('; ');
      rowErrors.push({
        line: r.line,
        message: `Line ${r.line}: ${text.charAt(0).toUpperCase()}${text.slice(1)}.`,
      });
      if (filePath !== null && !seen.has(filePath)) seen.set(filePath, r.line);
      continue;
    }
    seen.set(filePath, r.line);
    rows.push({
      line: r.line,
      filePath,
      participantCode,
      recordedAt,
      session: session === '' ? null : session,
    });
  }
  if (trimmedSessions.length > 0) notices.push(trimmedSessionNotice(trimmedSessions));
  return ok({ rows, rowErrors, notices });
}

/** The preview's warning for session labels stored without their leading or trailing spaces. */
const trimmedSessionNotice = (where: readonly string[]): string => {
  const shown = where.slice(0, 5).join(', ');
  const more = where.length > 5 ? ` and ${where.length - 5} more` : '';
  return `Warning: ${where.length === 1 ? 'a session label had' : `${where.length} session labels had`} spaces at the start or end, which were removed: ${shown}${more}. Check that the labels still match those of earlier imports.`;
};

/** A CSV template (header and two example rows, CRLF) that parses cleanly with `parseManifest`. */
export function manifestTemplate(): string {
  return stringify(
    [
      ['file', 'participant', 'recorded_at', 'session'],
      ['recordings/P001_baseline.wav', 'P001', '2024-03-05T09:30:00Z', 'baseline'],
      ['recordings/P002_week4.wav', 'P002', '2024-04-02', 'week 4'],
    ],
    { record_delimiter: 'windows' },
  );
}

// ---- dates ----

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/** Parses a manifest `recorded_at` value to ISO UTC (…Z); the error is a researcher-friendly phrase. */
export function parseRecordedAt(value: string, timeZone?: string): Result<string, string> {
  const bad = `the recorded_at value "${value}" is not a date we can read (use e.g. 2024-03-05, 2024-03-05T09:30:00Z or 2024-03-05T09:30:00+01:00)`;
  const d = DATE_ONLY.exec(value);
  if (d !== null) {
    const w: WallTime = {
      year: Number(d[1]),
      month: Number(d[2]),
      day: Number(d[3]),
      hour: 0,
      minute: 0,
      second: 0,
    };
    return isValidWallTime(w)
      ? ok(new Date(wallAsUtc(w)).toISOString())
      : err(`the recorded_at date "${value}" does not exist in the calendar`);
  }
  const m = DATE_TIME.exec(value);
  if (m === null) return err(bad);
  const w: WallTime = {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4]),
    minute: Number(m[5]),
    second: Number(m[6] ?? '0'),
  };
  if (!isValidWallTime(w)) return err(`the recorded_at value "${value}" is not a real date and time`);
  const millis = m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000);
  const zone = m[8];
  if (zone === undefined) {
    if (timeZone === undefined) {
      return err(
        `the recorded_at value "${value}" has no time zone; add Z or an offset such as +01:00, or choose the study's time zone before importing`,
      );
    }
    const t = zonedWallTimeToUtc(w, timeZone);
    if (t === null)
      return err(
        `the local time "${value}" does not exist in ${timeZone} (the clocks skipped it for daylight saving)`,
      );
    return ok(new Date(t + millis).toISOString());
  }
  let offsetMin = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2) || '0');
    if (oh > 23 || om > 59 || (digits.length !== 2 && digits.length !== 4)) return err(bad);
    offsetMin = sign * (oh * 60 + om);
  }
  return ok(new Date(wallAsUtc(w) - offsetMin * 60_000 + millis).toISOString());
}
