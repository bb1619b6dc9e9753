/**
 * load.do: a Stata do-file (Stata 14 or newer), written next to the CSVs, that reads every table with
 * the codebook's types and saves it as a .dta file: every cell read as text first (so a participant
 * code "NA" stays text), numbers as doubles, yes/no and categories encoded with value labels in their
 * documented order, times as %tc date-times, variable labels from the column titles, the formula
 * neutralisation undone, and the study's missing-data codes as extended missing values (.a to .j, from
 * shared/missing-data.ts). Generated from the column schema (stat-variables.ts). There is no Stata here:
 * test/integration/export/spss-stata.test.ts checks it with a parser of its own.
 */
import { MISSING_REASONS } from '../../shared/missing-data';
import { type StatTable, type StatVariable } from './stat-variables';

/** Words Stata reserves; none can be a variable name. */
export const STATA_RESERVED = [
  '_all',
  '_b',
  'byte',
  '_coef',
  '_cons',
  'double',
  'float',
  'if',
  'in',
  'int',
  'long',
  '_n',
  '_N',
  '_pi',
  '_pred',
  '_rc',
  '_skip',
  'strL',
  'using',
  'with',
];
/** Stata shows at most 80 characters of a variable label; value labels are kept as short. */
export const STATA_LABEL_CHARS = 80;

/** A label as a Stata string: no double quotes, backticks or dollar signs (which a do-file would expand), at most 80 characters. */
export const stataLabel = (s: string): string => {
  const clean = s
    .replace(/[\r\n]+/g, ' ')
    .replace(/"/g, "'")
    .replace(/`/g, "'")
    .replace(/\$/g, 'S');
  const chars = [...clean];
  return `"${chars.length <= STATA_LABEL_CHARS ? clean : `${chars.slice(0, STATA_LABEL_CHARS - 3).join('')}...`}"`;
};

/** A value that can be matched by `encode` as it is: plain text with nothing a do-file would expand. */
const plain = (v: string): boolean => /^[A-Za-z0-9_.\- ]{1,80}$/.test(v);

const MISSING_LABEL = 'vs_missing';
const BOOL_LABEL = 'vs_bool';

const PROGRAMS = [
  '* Helpers: each turns one text column into its type in place (same name, same position).',
  'capture program drop _vs_num',
  'program define _vs_num',
  '  args v',
  "  quietly generate double _vs_x = real(`v')",
  "  order _vs_x, after(`v')",
  "  drop `v'",
  "  rename _vs_x `v'",
  'end',
  'capture program drop _vs_time',
  'program define _vs_time',
  '  args v',
  '  quietly generate double _vs_x = clock(subinstr(subinstr(`v\', "T", " ", 1), "Z", "", 1), "YMDhms")',
  '  format _vs_x %tcCCYY-NN-DD_HH:MM:SS.sss',
  "  order _vs_x, after(`v')",
  "  drop `v'",
  "  rename _vs_x `v'",
  'end',
  'capture program drop _vs_encode',
  'program define _vs_encode',
  '  args v lbl',
  "  encode `v', generate(_vs_x) label(`lbl')",
  "  order _vs_x, after(`v')",
  "  drop `v'",
  "  rename _vs_x `v'",
  'end',
  'capture program drop _vs_text',
  'program define _vs_text',
  '  args v',
  "  quietly replace `v' = substr(`v', 2, .) if substr(`v', 1, 1) == \"'\"",
  'end',
];

/** Names split over lines of a handful each, with Stata's `///` continuation. */
const nameLines = (names: readonly string[], per = 8): string[] => {
  const out: string[] = [];
  for (let i = 0; i < names.length; i += per) out.push(names.slice(i, i + per).join(' '));
  return out;
};

const tableDo = (t: StatTable): string[] => {
  const vars = t.variables;
  for (const v of vars)
    if (STATA_RESERVED.includes(v.name) || v.name.length > 32)
      throw new Error(`Column ${v.name} of ${t.file} cannot be a Stata variable name.`);
  const out: string[] = [`* ---- ${t.file}: ${t.title} (${t.rows} rows) ----`];
  out.push(
    `import delimited using "${t.file}", clear varnames(nonames) rowrange(2) stringcols(_all) ///`,
    '  bindquotes(strict) delimiters(",") encoding("utf-8")',
  );
  const positional = vars.map((_, i) => `v${i + 1}`);
  const from = nameLines(positional);
  const to = nameLines(vars.map((v) => v.name));
  out.push('rename ( ///', ...from.map((l) => `  ${l} ///`), ') ( ///', ...to.map((l) => `  ${l} ///`), ')');
  const is = (...kinds: StatVariable['kind'][]) => vars.filter((v) => kinds.includes(v.kind));
  for (const v of is('integer', 'number')) out.push(`_vs_num ${v.name}`);
  for (const v of is('utc', 'local')) out.push(`_vs_time ${v.name}`);
  for (const v of vars) if (v.kind === 'text' && v.neutralised) out.push(`_vs_text ${v.name}`);
  const coded = vars.filter((v) => v.coded).map((v) => v.name);
  const hasMissing = t.reason !== null && coded.length > 0;
  if (hasMissing) {
    out.push(
      `* An empty value takes the row's missing-data code (${t.reason}) as an extended missing value.`,
      'foreach v of varlist ///',
      ...nameLines(coded).map((l) => `  ${l} ///`),
      '{',
      ...MISSING_REASONS.map(
        (m) => `  quietly replace \`v' = ${m.stata} if missing(\`v') & ${t.reason} == "${m.code}"`,
      ),
      '}',
      `label define ${MISSING_LABEL} ${MISSING_REASONS.map((m) => `${m.stata} ${stataLabel(`${m.label} (${m.code})`)}`).join(' ')}`,
    );
  }
  if (is('boolean').length) out.push(`label define ${BOOL_LABEL} 0 "false" 1 "true"`);
  for (const v of vars) {
    if (v.kind === 'boolean') out.push(`_vs_encode ${v.name} ${BOOL_LABEL}`);
    else if (v.kind === 'reason') {
      // The codes are matched as they are in the CSV, then labelled in words.
      out.push(
        `label define ${v.name} ${MISSING_REASONS.map((m) => `${m.spss} "${m.code}"`).join(' ')}`,
        `_vs_encode ${v.name} ${v.name}`,
        `label define ${v.name} ${MISSING_REASONS.map((m) => `${m.spss} ${stataLabel(`${m.label} (${m.code})`)}`).join(' ')}, modify`,
      );
    } else if (v.kind === 'category' && v.levels.every((l) => plain(l.value))) {
      out.push(
        `label define ${v.name} ${v.levels.map((l, k) => `${k + 1} "${l.value}"`).join(' ')}`,
        `_vs_encode ${v.name} ${v.name}`,
      );
      const relabel = v.levels.map((l, k) => [k + 1, l] as const).filter(([, l]) => l.label !== l.value);
      if (relabel.length)
        out.push(
          `label define ${v.name} ${relabel.map(([k, l]) => `${k} ${stataLabel(l.label)}`).join(' ')}, modify`,
        );
    }
  }
  if (hasMissing) out.push(...coded.map((n) => `label values ${n} ${MISSING_LABEL}`));
  out.push(...vars.map((v) => `label variable ${v.name} ${stataLabel(v.title)}`));
  out.push(
    `label data ${stataLabel(`Voicescope: ${t.title}`)}`,
    'compress',
    `save "${t.key}.dta", replace`,
    '',
  );
  return out;
};

export const loadDo = (tables: readonly StatTable[], tz: string): string => {
  const read = tables.filter((t) => t.rows > 0);
  const empty = tables.filter((t) => t.rows === 0);
  const out = [
    "* Reads this Voicescope export into Stata (14 or newer) with the codebook's types and labels.",
    '* Run it from the export folder:  cd "path/to/export"  then  do load.do',
    '* Each table is saved as <table>.dta beside the CSVs; the last one stays in memory.',
    '* Every cell is read as text first, so a participant code "NA" stays text; numbers are doubles;',
    '* yes/no columns are 0 = false, 1 = true; categories are encoded with value labels in their documented',
    '* order (a rating outside the listed classes, kept as received, gets a label of its own);',
    `* *_utc columns are %tc date-times in UTC, *_local ones wall-clock date-times in ${tz.replace(/[\r\n]/g, ' ')};`,
    "* a leading ' added against spreadsheet formulas is removed.",
    '* Missing-data codes, as extended missing values where a table has a missing-reason column:',
    ...MISSING_REASONS.map((m) => `*   ${m.stata} ${m.code} ${m.label}`),
    ...(empty.length ? [`* Not read (no rows in this export): ${empty.map((t) => t.file).join(', ')}`] : []),
    'version 14',
    'set more off',
    '',
    ...PROGRAMS,
    '',
  ];
  for (const t of read) out.push(...tableDo(t));
  return `${out.join('\n')}\n`;
};
