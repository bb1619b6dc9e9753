/**
 * Participant attributes from a CSV: a header `participant_code,<attribute>,…` and one row
 * per participant. Comma, semicolon or tab separated; a byte-order mark is ignored; an empty cell leaves
 * that attribute as it is. The text is read here and nothing else: which codes exist is the service's.
 */
import { parse } from 'csv-parse/sync';
import { hasControlCharacters } from '../../shared/contract/bounds';
import { MAX_ATTRIBUTES } from '../../shared/contract/cohort.contract';
import { err, ok, type Result } from '../../shared/result';

export interface AttributesCsv {
  readonly keys: readonly string[];
  readonly rows: readonly { line: number; code: string; values: ReadonlyMap<string, string> }[];
  /** Rows left out, in the researcher's words. */
  readonly problems: readonly string[];
}

const delimiterOf = (firstLine: string) =>
  [',', ';', '\t'].reduce((best, d) => (firstLine.split(d).length > firstLine.split(best).length ? d : best));

export const readAttributesCsv = (text: string): Result<AttributesCsv, string> => {
  const body = text.replace(/^\ufeff/, '');
  let records: string[][];
  try {
    records = parse(body, {
      delimiter: delimiterOf(body.split(/\r?\n/, 1)[0] ?? ''),
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
    });
  } catch (e) {
    const line = typeof (e as { lines?: unknown }).lines === 'number' ? (e as { lines: number }).lines : null;
    return err(
      `The file is not valid CSV${line === null ? '' : ` near line ${line}`}. Check for an unclosed quote.`,
    );
  }
  const header = records.shift();
  if (!header || header[0]?.toLowerCase() !== 'participant_code')
    return err(
      'The first column must be headed participant_code, followed by one column per attribute (for example participant_code,arm,site).',
    );
  const keys = header.slice(1);
  if (keys.length === 0)
    return err('The file names no attribute: add columns after participant_code (arm, site…).');
  if (keys.length > MAX_ATTRIBUTES) return err(`The file has more than ${MAX_ATTRIBUTES} attribute columns.`);
  const bad = keys.find((k) => k === '' || k.length > 64 || hasControlCharacters(k));
  if (bad !== undefined)
    return err('Every attribute column needs a name of 1 to 64 characters, without control characters.');
  if (new Set(keys.map((k) => k.toLowerCase())).size !== keys.length)
    return err('Two attribute columns have the same name.');

  const problems: string[] = [];
  const rows: { line: number; code: string; values: Map<string, string> }[] = [];
  records.forEach((r, i) => {
    const line = i + 2;
    const code = r[0] ?? '';
    if (code === '') return void problems.push(`Line ${line}: no participant code; the row was left out.`);
    const values = new Map<string, string>();
    keys.forEach((k, j) => {
      const v = r[j + 1] ?? '';
      if (v !== '') values.set(k, v);
    });
    if ([...values.values(), code].some((v) => v.length > 200 || hasControlCharacters(v)))
      return void problems.push(
        `Line ${line}: a value is longer than 200 characters or holds control characters; the row was left out.`,
      );
    rows.push({ line, code, values });
  });
  return ok({ keys, rows, problems });
};
