/**
 * load.sps: SPSS syntax, written next to the CSVs, that reads every table with the codebook's types
 * and saves it as a .sav file: GET DATA for each CSV with formats that fit, VARIABLE LABELS from the
 * column titles, numeric codes with VALUE LABELS for every category (yes/no, analysis types, states,
 * flags, rating classes), dates and times as SPSS date-times, the formula neutralisation undone, and
 * the study's missing-data codes declared as MISSING VALUES. Generated from the column schema
 * (stat-variables.ts); test/integration/export/spss-stata.test.ts runs it in GNU PSPP.
 */
import { MISSING_REASONS } from '../../shared/missing-data';
import {
  cutBytes,
  OTHER_CATEGORY_CODE,
  OTHER_CATEGORY_LABEL,
  SPSS_MISSING_RANGE,
  type StatTable,
  type StatVariable,
} from './stat-variables';
import type { TextWidths } from './text-widths';

/** SPSS's reserved words cannot be variable names. */
export const SPSS_RESERVED = [
  'all',
  'and',
  'by',
  'eq',
  'ge',
  'gt',
  'le',
  'lt',
  'ne',
  'not',
  'or',
  'to',
  'with',
];
/** SPSS keeps at most this many bytes of a string value. */
export const SPSS_MAX_WIDTH = 32767;
const VARIABLE_LABEL_BYTES = 255;
const VALUE_LABEL_BYTES = 120;

/** A quoted SPSS string: single quotes, doubled inside; line breaks become spaces. */
export const spssString = (s: string): string => `'${s.replace(/[\r\n]+/g, ' ').replace(/'/g, "''")}'`;

const maxBytes = (xs: readonly string[]): number =>
  Math.max(1, ...xs.map((x) => Buffer.byteLength(x, 'utf8')));

/** Text that needs converting is read under a temporary name (`@` cannot start a column name). */
const rawName = (i: number): string => `@v${i + 1}`;

const inputFormat = (v: StatVariable, width: number): string => {
  switch (v.kind) {
    case 'integer':
    case 'number':
      return 'F40.0';
    case 'local':
      return 'YMDHMS19';
    case 'utc':
      return 'A40';
    case 'boolean':
      return 'A5';
    case 'category':
      return `A${Math.max(maxBytes(v.levels.map((l) => l.value)), v.closed ? 1 : Math.min(width, SPSS_MAX_WIDTH))}`;
    case 'reason':
      return `A${maxBytes(MISSING_REASONS.map((m) => m.code))}`;
    case 'text':
      return `A${Math.max(1, Math.min(width, SPSS_MAX_WIDTH))}`;
  }
};

/** Read under a temporary name and converted into the column's own name. */
const converted = (v: StatVariable): boolean =>
  v.kind === 'utc' || v.kind === 'boolean' || v.kind === 'category' || v.kind === 'reason';

const recode = (
  from: string,
  pairs: readonly (readonly [string, number])[],
  into: string,
  other?: number,
) => [
  `RECODE ${from}`,
  ...pairs.map(([value, code]) => `  (${spssString(value)}=${code})`),
  ...(other !== undefined ? ["  (''=SYSMIS)", `  (ELSE=${other})`] : []),
  `  INTO ${into}.`,
];

const valueLabels = (name: string, pairs: readonly (readonly [number, string])[]): string[] => [
  `VALUE LABELS ${name}`,
  ...pairs.map(([code, label]) => `  ${code} ${spssString(cutBytes(label, VALUE_LABEL_BYTES))}`),
  '  .',
];

const MISSING_LABELS = MISSING_REASONS.map((m) => [m.spss, `${m.label} (${m.code})`] as const);

const refuseReservedNames = (t: StatTable): void => {
  for (const v of t.variables)
    if (SPSS_RESERVED.includes(v.name))
      throw new Error(
        `Column ${v.name} of ${t.file} is an SPSS reserved word and cannot be a variable name.`,
      );
};

/** The table's heading comment and its warnings: line breaks SPSS misreads, text it cuts. */
const tableHeading = (t: StatTable, widths: TextWidths | undefined): string[] => {
  const out = [`* ---- ${t.file}: ${t.title} (${t.rows} rows) ----.`];
  if (widths && widths.cellsWithLineBreaks > 0)
    out.push(
      `* Warning: ${t.file} has text with line breaks in ${widths.cellsWithLineBreaks} place(s). SPSS reads one line per case,`,
      '* so those rows are read wrongly here; read them with load.R or load.py, or in the workbook.',
    );
  const cut = t.variables.filter((v, i) => v.kind === 'text' && (widths?.bytes[i] ?? 0) > SPSS_MAX_WIDTH);
  if (cut.length > 0)
    out.push(
      `* Warning: text longer than ${SPSS_MAX_WIDTH} bytes (SPSS's limit) is cut in: ${cut.map((v) => v.name).join(' ')}.`,
    );
  return out;
};

/** GET DATA: the CSV read with an input format per column. */
const getData = (t: StatTable, widths: TextWidths | undefined): string[] => [
  'GET DATA /TYPE=TXT',
  `  /FILE=${spssString(t.file)}`,
  "  /ENCODING='UTF8'",
  '  /ARRANGEMENT=DELIMITED',
  '  /DELCASE=LINE',
  '  /FIRSTCASE=2',
  "  /DELIMITERS=','",
  `  /QUALIFIER='"'`,
  '  /VARIABLES=',
  ...t.variables.map(
    (v, i) => `    ${converted(v) ? rawName(i) : v.name} ${inputFormat(v, widths?.bytes[i] ?? 255)}`,
  ),
  '  .',
];

/** The commands that turn the text read for column `i` into its value. */
const conversion = (v: StatVariable, i: number): string[] => {
  const raw = rawName(i);
  switch (v.kind) {
    case 'utc':
      // 2024-03-05T09:30:00Z, with a fraction of a second only when there is one.
      return [
        `COMPUTE ${v.name} = NUMBER(REPLACE(SUBSTR(${raw}, 1, 19), 'T', ' '), YMDHMS19).`,
        `IF (SUBSTR(${raw}, 20, 1) = '.') ${v.name} = ${v.name} + NUMBER(SUBSTR(${raw}, 20, INDEX(${raw}, 'Z') - 20), F20).`,
      ];
    case 'boolean':
      return recode(
        raw,
        [
          ['true', 1],
          ['false', 0],
        ],
        v.name,
      );
    case 'category':
      return recode(
        raw,
        v.levels.map((l, k) => [l.value, k + 1] as const),
        v.name,
        v.closed ? undefined : OTHER_CATEGORY_CODE,
      );
    case 'reason':
      return recode(
        raw,
        MISSING_REASONS.map((m) => [m.code, m.spss] as const),
        v.name,
      );
    case 'text':
      return v.neutralised ? [`IF (SUBSTR(${v.name}, 1, 1) = "'") ${v.name} = SUBSTR(${v.name}, 2).`] : [];
    default:
      return [];
  }
};

/** The columns that take the row's missing-data code when empty. */
const codedNames = (t: StatTable): string[] => t.variables.filter((v) => v.coded).map((v) => v.name);

/** An empty coded value takes the row's missing-data code; then only the table's own columns are kept. */
const fillMissingAndKeep = (t: StatTable): string[] => {
  const coded = codedNames(t);
  return [
    ...(t.reason && coded.length > 0
      ? [
          `* An empty value takes the row's missing-data code (${t.reason}).`,
          `DO REPEAT x = ${coded.join(' ')}.`,
          `  IF (SYSMIS(x) AND NOT SYSMIS(${t.reason})) x = ${t.reason}.`,
          'END REPEAT.',
        ]
      : []),
    `MATCH FILES /FILE=* /KEEP=${t.variables.map((v) => v.name).join(' ')}.`,
  ];
};

const displayFormat = (v: StatVariable): string | undefined => {
  switch (v.kind) {
    case 'integer':
      return `${v.name} (F15.0)`;
    case 'number':
      return `${v.name} (F18.6)`;
    case 'boolean':
      return `${v.name} (F1.0)`;
    case 'category':
      return `${v.name} (F2.0)`;
    case 'reason':
      return `${v.name} (F3.0)`;
    case 'utc':
      return `${v.name} (YMDHMS23.3)`;
    default:
      return undefined;
  }
};

const formats = (t: StatTable): string[] => {
  const lines = t.variables.flatMap((v) => displayFormat(v) ?? []);
  return lines.length ? ['FORMATS', ...lines.map((f) => `  ${f}`), '  .'] : [];
};

const variableLabels = (t: StatTable): string[] => [
  'VARIABLE LABELS',
  ...t.variables.map(
    (v, i) => `  ${i > 0 ? '/' : ''}${v.name} ${spssString(cutBytes(v.title, VARIABLE_LABEL_BYTES))}`,
  ),
  '  .',
];

const codeLabels = (v: StatVariable): string[] => {
  if (v.kind === 'boolean')
    return valueLabels(v.name, [
      [0, 'false'],
      [1, 'true'],
    ]);
  if (v.kind === 'category')
    return valueLabels(v.name, [
      ...v.levels.map((l, k) => [k + 1, l.label] as const),
      ...(v.closed ? [] : [[OTHER_CATEGORY_CODE, OTHER_CATEGORY_LABEL] as const]),
    ]);
  if (v.kind === 'reason') return valueLabels(v.name, MISSING_LABELS);
  return [];
};

/** VALUE LABELS for every coded column, and the missing-data codes declared MISSING VALUES. */
const valueLabelsAndMissing = (t: StatTable): string[] => {
  const coded = codedNames(t);
  return [
    ...t.variables.flatMap(codeLabels),
    ...(coded.length > 0
      ? [
          ...valueLabels(coded.join(' '), MISSING_LABELS),
          `MISSING VALUES ${coded.join(' ')} (${SPSS_MISSING_RANGE[0]} THRU ${SPSS_MISSING_RANGE[1]}).`,
        ]
      : []),
  ];
};

const levels = (t: StatTable): string[] => {
  const level = (pick: (v: StatVariable) => boolean, word: string) => {
    const names = t.variables.filter(pick).map((v) => v.name);
    return names.length ? [`VARIABLE LEVEL ${names.join(' ')} (${word}).`] : [];
  };
  return [
    ...level((v) => v.kind === 'integer' || v.kind === 'number', 'SCALE'),
    ...level(
      (v) =>
        v.kind === 'boolean' ||
        v.kind === 'reason' ||
        (v.kind === 'category' && !v.ordered) ||
        v.kind === 'text',
      'NOMINAL',
    ),
    ...level((v) => v.kind === 'category' && v.ordered, 'ORDINAL'),
  ];
};

const tableSyntax = (t: StatTable, widths: TextWidths | undefined): string[] => {
  refuseReservedNames(t);
  return [
    ...tableHeading(t, widths),
    ...getData(t, widths),
    ...t.variables.flatMap(conversion),
    ...fillMissingAndKeep(t),
    ...formats(t),
    ...variableLabels(t),
    ...valueLabelsAndMissing(t),
    ...levels(t),
    `SAVE OUTFILE=${spssString(`${t.key}.sav`)}.`,
    `DATASET NAME ${t.key}.`,
    '',
  ];
};

export const loadSps = (
  tables: readonly StatTable[],
  widths: ReadonlyMap<string, TextWidths>,
  tz: string,
): string => {
  const read = tables.filter((t) => t.rows > 0);
  const empty = tables.filter((t) => t.rows === 0);
  const out = [
    '* Encoding: UTF-8.',
    "* Reads this Voicescope export into SPSS (or GNU PSPP) with the codebook's types and labels.",
    '* Run it from the export folder: in SPSS, first CD to it (CD "path/to/export".), then run all;',
    '* in PSPP: pspp load.sps. Each table is saved as <table>.sav beside the CSVs and left open as a dataset.',
    '* Categories are numeric codes with value labels; yes/no columns are 1 = true, 0 = false;',
    `* *_utc columns are date-times in UTC, *_local ones wall-clock date-times in ${tz.replace(/[\r\n]/g, ' ')};`,
    "* a leading ' added against spreadsheet formulas is removed. A rating outside the listed classes",
    `* (kept as received, see flags) is code ${OTHER_CATEGORY_CODE}.`,
    `* Missing-data codes (declared MISSING VALUES ${SPSS_MISSING_RANGE[0]} THRU ${SPSS_MISSING_RANGE[1]} where a table has a missing-reason column):`,
    ...MISSING_REASONS.map((m) => `*   ${m.spss} ${m.code} ${m.label}.`),
    ...(empty.length ? [`* Not read (no rows in this export): ${empty.map((t) => t.file).join(', ')}.`] : []),
    'SET DECIMAL=DOT.',
    '',
  ];
  for (const t of read) out.push(...tableSyntax(t, widths.get(t.file)));
  return `${out.join('\n')}\n`;
};
