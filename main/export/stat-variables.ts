/**
 * How a statistics package should hold each exported column, decided once from the column schema for
 * load.sps, load.do and study.xlsx: numbers, yes/no, categories with their labels in their documented
 * order, times, text (with the formula neutralisation to undo), and the study's missing-data codes.
 *
 * Nothing here names a file or a column. A column whose allowed values are missing-data codes
 * (shared/missing-data.ts) is a missing-reason column; in a table that has one, every numeric column
 * that may be empty and is not a key gets the reason's numeric code (SPSS) or extended missing value
 * (Stata) where it is empty. So a new table, column or code flows into the scripts by being declared
 * in the schema.
 */
import { ANALYSIS_LABEL, ANALYSIS_TYPES } from '../../shared/api/vocabulary';
import { MEASURES } from '../../shared/api/measures';
import type { ColumnDef, FileDef } from '../../shared/export';
import { MISSING_REASONS } from '../../shared/missing-data';

export interface Level {
  /** The text in the CSV. */
  readonly value: string;
  /** What a statistics package shows for it. */
  readonly label: string;
}

export type VariableKind =
  | { readonly kind: 'integer' | 'number' | 'boolean' | 'utc' | 'local' }
  | { readonly kind: 'text'; readonly neutralised: boolean }
  /**
   * `closed`: the schema allows only these values, so every cell is one of them; otherwise (a measure's
   * rating classes, kept as received even outside them) another value may come.
   */
  | {
      readonly kind: 'category';
      readonly levels: readonly Level[];
      readonly ordered: boolean;
      readonly closed: boolean;
    }
  /** The missing-data codes, each with its SPSS number and Stata extended missing value. */
  | { readonly kind: 'reason' };

export type StatVariable = VariableKind & {
  readonly name: string;
  readonly title: string;
  /** Empty cells take the row's missing-data code (only in a table with a reason column). */
  readonly coded: boolean;
};

export interface StatTable {
  readonly file: string;
  /** The table's name without `.csv` (the .sav and .dta file names, the workbook's sheet name). */
  readonly key: string;
  readonly title: string;
  readonly rows: number;
  readonly variables: readonly StatVariable[];
  /** The missing-reason column, if the table has one. */
  readonly reason: string | null;
}

const MISSING_CODES: ReadonlySet<string> = new Set(MISSING_REASONS.map((m) => m.code));

export const isReasonColumn = (c: Pick<ColumnDef, 'enum'>): boolean =>
  c.enum !== undefined && c.enum.length > 0 && c.enum.every((v) => MISSING_CODES.has(v));

/** The label of an allowed value: a vocabulary's own words where it has them, else the value itself. */
export const levelLabel = (value: string): string => {
  const missing = MISSING_REASONS.find((m) => m.code === value);
  if (missing) return `${missing.label} (${missing.code})`;
  if ((ANALYSIS_TYPES as readonly string[]).includes(value))
    return ANALYSIS_LABEL[value as (typeof ANALYSIS_TYPES)[number]];
  return value;
};

const kindOf = (c: ColumnDef): VariableKind => {
  if (isReasonColumn(c)) return { kind: 'reason' };
  if (c.enum)
    return {
      kind: 'category',
      levels: c.enum.map((value) => ({ value, label: levelLabel(value) })),
      ordered: false,
      closed: true,
    };
  const measure = c.measure ? MEASURES.find((m) => m.key === c.measure) : undefined;
  if (measure?.allowed && c.type === 'string')
    return {
      kind: 'category',
      levels: measure.allowed.map((value) => ({ value, label: value })),
      ordered: true,
      closed: false,
    };
  switch (c.type) {
    case 'integer':
    case 'number':
    case 'boolean':
      return { kind: c.type };
    case 'datetime':
      return { kind: c.timeFormat === 'local' ? 'local' : 'utc' };
    case 'string':
      return { kind: 'text', neutralised: c.neutralised };
  }
};

export const statTable = (t: FileDef, rows: number): StatTable => {
  const reason = t.columns.find(isReasonColumn)?.name ?? null;
  const keys = new Set([...t.primaryKey, ...t.foreignKeys.flatMap((k) => k.fields)]);
  return {
    file: t.name,
    key: t.name.replace(/\.csv$/, ''),
    title: t.title,
    rows,
    reason,
    variables: t.columns.map((c) => {
      const kind = kindOf(c);
      return {
        ...kind,
        name: c.name,
        title: c.title,
        coded:
          reason !== null &&
          (kind.kind === 'integer' || kind.kind === 'number') &&
          !c.required &&
          !keys.has(c.name),
      };
    }),
  };
};

/** The numeric codes of the missing reasons, lowest and highest (SPSS declares the range as missing). */
export const SPSS_MISSING_RANGE = [
  Math.min(...MISSING_REASONS.map((m) => m.spss)),
  Math.max(...MISSING_REASONS.map((m) => m.spss)),
] as const;

/** A category value outside a measure's listed classes (kept as received in the CSV) is this code in SPSS. */
export const OTHER_CATEGORY_CODE = 99;
export const OTHER_CATEGORY_LABEL = 'Another value (as received; see the CSV and flags)';

/** Cuts text to at most `max` UTF-8 bytes without splitting a character. */
export const cutBytes = (s: string, max: number): string => {
  if (Buffer.byteLength(s, 'utf8') <= max) return s;
  let out = '';
  let n = 0;
  for (const ch of s) {
    const b = Buffer.byteLength(ch, 'utf8');
    if (n + b > max - 3) break;
    out += ch;
    n += b;
  }
  return `${out}...`;
};
