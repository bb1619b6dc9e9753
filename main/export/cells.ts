/**
 * From values to CSV text. csv-stringify decides every quote and escape (RFC 4180: a field holding a
 * comma, a quote, CR or LF is quoted, and quotes are doubled); this module only converts values to
 * cells, neutralises formulas in free text and caches the library's answer for strings that repeat
 * (a recording's participant, session and timestamps recur on each of its 37 long-form rows).
 * test/unit/export/cells.test.ts checks that a row encoded here is byte-identical to csv-stringify
 * encoding the whole row.
 */
import { Stringifier, type Options } from 'csv-stringify';
import type { ColumnDef } from '../../shared/export';

export type Cell = string | number | null;

export const FIELD_DELIMITER = ',';
/** RFC 4180 line ends; R, pandas, Python's csv module and Excel all read them. */
export const RECORD_DELIMITER = '\r\n';
/**
 * `quote_record_delimiter`: a field holding a lone LF or CR is quoted too (csv-stringify quotes only
 * the full CRLF once a record delimiter is set, and Python's csv module would then split the row).
 * `quoted_match`: text with leading or trailing white space is quoted, which some readers would trim.
 */
export const CSV_OPTIONS: Options = {
  delimiter: FIELD_DELIMITER,
  record_delimiter: RECORD_DELIMITER,
  quote: '"',
  escape: '"',
  eof: false,
  quote_record_delimiter: true,
  quoted_match: [/^\s/, /\s$/],
};

/** Spreadsheets run a cell starting with these as a formula (OWASP ASVS 1.2.10, CWE-1236); the full-width forms too (Apple Numbers normalises them). */
const FORMULA_START = new Set(['=', '+', '-', '@', '\t', '\r', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20']);

/**
 * Free text that could run as a formula gets a leading `'`. A value that already starts with `'` gets
 * one too, so the rule can be undone without ambiguity: drop one leading `'` (load.R and load.py do).
 * Never applied to numbers: a negative value stays a number.
 */
export const neutraliseFormula = (text: string): string => {
  const first = text[0];
  return first !== undefined && (FORMULA_START.has(first) || first === "'") ? `'${text}` : text;
};

export const undoNeutralisation = (text: string): string => (text.startsWith("'") ? text.slice(1) : text);

/** A value as the cell a column writes: empty for missing, `true`/`false`, finite numbers only, neutralised free text. */
export const toCell = (
  col: Pick<ColumnDef, 'neutralised'>,
  v: string | number | boolean | null | undefined,
): Cell => {
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  return col.neutralised ? neutraliseFormula(v) : v;
};

const CACHE_LIMIT = 4096;

/**
 * csv-stringify's encoder of one record, with its options checked once. (Its sync `stringify()` checks
 * and normalises the options on every call, a third of the time of encoding a cell.) `api.stringify` is
 * the function its stream and its sync API both use; test/unit/export/cells.test.ts keeps our rows
 * byte-identical to the public `stringify`.
 */
type RecordEncoder = (record: readonly string[]) => string;
const recordEncoder = (): RecordEncoder => {
  const { api } = new Stringifier(CSV_OPTIONS) as unknown as {
    api: { stringify(record: readonly string[]): [Error | undefined, string | undefined] };
  };
  return (record) => {
    const [e, text] = api.stringify(record);
    if (e) throw e;
    return text ?? '';
  };
};

/** Encodes rows into CSV lines (without the line end). One per file: its cache holds that file's recent strings. */
export const createRowEncoder = (): { row(cells: readonly Cell[]): string } => {
  const cache = new Map<string, string>();
  const encode = recordEncoder();
  const one: string[] = [''];
  const encodeString = (s: string): string => {
    let e = cache.get(s);
    if (e === undefined) {
      if (cache.size >= CACHE_LIMIT) cache.clear();
      one[0] = s;
      e = encode(one);
      cache.set(s, e);
    }
    return e;
  };
  return {
    row(cells) {
      let line = '';
      for (let i = 0; i < cells.length; i++) {
        const c = cells[i];
        if (i > 0) line += FIELD_DELIMITER;
        // Numbers: csv-stringify's own number cast is `'' + value`, and digits, '.', '-', 'e' and '+' never need quotes.
        if (typeof c === 'number') line += String(c);
        else if (typeof c === 'string' && c !== '') line += encodeString(c);
      }
      return line;
    },
  };
};
