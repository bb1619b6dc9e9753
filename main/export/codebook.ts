/**
 * codebook.md: the human-readable description of an export, generated from the column schema and
 * the catalogue: settings, conventions, every file with its hash, every column of every file, every
 * measure with its meaning, wire path in v1.3 and v1.2 and sourced reference values.
 */
import { DATA_QUALITY, DATA_QUALITY_CODES } from '../../shared/api/data-quality';
import { ANALYSIS_LABEL } from '../../shared/api/vocabulary';
import { ANALYSIS_PREFIX, EXTRA_FILE, type ExportExtra } from '../../shared/export';
import { localCodebookSection } from './local-columns';
import { MISSING_REASONS } from '../../shared/missing-data';
import { OTHER_CATEGORY_CODE, SPSS_MISSING_RANGE } from './stat-variables';
import { EXCEL_MAX_CHARS, EXCEL_MAX_ROWS } from './workbook';
import {
  CONVENTIONS,
  describeMeasures,
  requestJson,
  settingsRows,
  simulatedWarning,
  type ExportDescription,
} from './describe';

/** A table cell: pipes escaped and line breaks flattened so any text keeps the table intact. */
const cell = (s: string): string =>
  s
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/\r\n|\r|\n/g, ' ');
const code = (s: string): string => `\`${s}\``;
const table = (head: readonly string[], rows: readonly (readonly string[])[]): string[] => [
  `| ${head.join(' | ')} |`,
  `|${head.map(() => '---').join('|')}|`,
  ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
];
/** A fenced block whose fence is longer than any run of backticks inside it. */
const fenced = (lang: string, text: string): string[] => {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return [`${fence}${lang}`, text, fence];
};

const EXTRA_TEXT: Record<ExportExtra, string> = {
  spss: `\`${EXTRA_FILE.spss}\` (SPSS syntax; runs in GNU PSPP too): reads every table with a row, run from this folder, and saves it as \`<table>.sav\`: categories and yes/no columns as numeric codes with value labels in their documented order (a rating outside the listed classes is ${OTHER_CATEGORY_CODE}), times as date-times, variable labels from the column titles, the formula neutralisation undone, and the missing-data codes below declared as MISSING VALUES (${SPSS_MISSING_RANGE[0]} THRU ${SPSS_MISSING_RANGE[1]}) in tables with a missing-reason column. SPSS reads one line per case: a text with a line break is read wrongly (the syntax warns where there is one).`,
  stata: `\`${EXTRA_FILE.stata}\` (Stata 14 or newer): \`cd\` to this folder, then \`do ${EXTRA_FILE.stata}\`; reads every table with a row as text first, then numbers as doubles, categories and yes/no columns encoded with value labels, times as %tc, variable labels (at most 80 characters), and the missing-data codes below as extended missing values (.a to .j); saves \`<table>.dta\`.`,
  xlsx: `\`${EXTRA_FILE.xlsx}\` (Excel): a sheet per CSV with typed cells (numbers, TRUE/FALSE, date-times; text without the leading ' a CSV needs against formulas), a \`codebook\` sheet (every column of every sheet) and a \`settings\` sheet. A sheet longer than Excel's ${EXCEL_MAX_ROWS.toLocaleString('en-US')} rows continues on \`<name> (2)\`; a text longer than ${EXCEL_MAX_CHARS.toLocaleString('en-US')} characters is cut there (the CSV has it whole).`,
};

/** The files for SPSS, Stata and Excel this export has, and the missing-data codes they declare. */
const statisticsFiles = (extras: readonly ExportExtra[]): string[] => [
  '### Files for statistics packages',
  '',
  ...extras.map((x) => `- ${EXTRA_TEXT[x]}`),
  '',
  'The missing-data codes the scripts declare are listed under "Missing-data codes" below, with their SPSS and Stata forms.',
];

/** The columns this export leaves out because its login may not read what they are read from. */
const withheldSection = (withheld: ExportDescription['withheld']): string[] => [
  '## Columns left out',
  '',
  'This export was written by a member of a team study whose role may not read every column of the study database (docs/team.md). These columns are left out of their files, and out of every description of them below; the rows are otherwise those the member may read (the sites granted to them):',
  '',
  ...table(
    ['File', 'Column', 'Read from', 'Why'],
    withheld.map((w) => [code(w.file), code(w.column), code(w.source), w.why]),
  ),
];

export const codebookMarkdown = (d: ExportDescription): string => {
  const out: string[] = [];
  const push = (...lines: string[]) => out.push(...lines);
  push(`# Codebook: export of study ${JSON.stringify(d.studyName)}`, '');
  push(
    `Written by Voicescope ${d.appVersion} at ${d.exportedAt} (UTC). This codebook, datapackage.json and the CSV headers are generated from one column schema, so every column of every file is described here exactly as it was written.`,
    '',
  );
  const warning = simulatedWarning(d.simulatedRecordings, d.recordings);
  if (warning) push(`> **Simulated values.** ${warning}`, '');
  push('## Export settings', '', ...table(['Setting', 'Value'], settingsRows(d)), '');
  push('The request, exactly:', '', ...fenced('json', JSON.stringify(requestJson(d.request), null, 2)), '');
  push('## Conventions', '', ...CONVENTIONS.map((c) => `- ${c}`), '');

  push(
    '## Files',
    '',
    ...table(
      ['File', 'Rows', 'Bytes', 'SHA-256', 'One row is'],
      d.written.map((f) => {
        const t = d.tables.find((x) => x.name === f.name);
        return [
          code(f.name),
          f.rows === null ? '' : String(f.rows),
          String(f.bytes),
          code(f.sha256),
          t ? t.rowIs : f.role === 'loader' ? 'a loader script' : f.role,
        ];
      }),
    ),
    '',
  );
  push(
    '`codebook.md` (this file) and `datapackage.json` (the same description as a Frictionless Data Package with Table Schemas) are listed with their hashes in `SHA256SUMS` (check with `sha256sum -c SHA256SUMS`). `load.R` (base R) and `load.py` (pandas) read every table with the types below.',
    '',
  );
  if (d.request.extras.length > 0) push(...statisticsFiles(d.request.extras), '');
  if (d.withheld.length > 0) push(...withheldSection(d.withheld), '');

  for (const t of d.tables) {
    push(`## ${t.title} (\`${t.name}\`)`, '', `One row is ${t.rowIs}. ${t.description}`, '');
    push(
      `Primary key: ${t.primaryKey.map(code).join(' + ')}.${t.foreignKeys.map((k) => ` ${k.fields.map(code).join(', ')} joins \`${k.resource}.csv\`.`).join('')}`,
      '',
    );
    push(
      ...table(
        ['Column', 'Type', 'Unit', 'Allowed values', 'Meaning'],
        t.columns.map((c) => [
          code(c.name),
          `${c.type}${c.timeFormat === 'utc' ? ' (ISO 8601, UTC)' : c.timeFormat === 'local' ? ' (YYYY-MM-DD HH:MM:SS, local)' : ''}${c.required ? ', never empty' : ''}`,
          c.unit ?? '',
          c.enum ? c.enum.join(', ') : c.range ? `${c.range[0]} to ${c.range[1]}` : '',
          `${c.title}. ${c.description}${c.neutralised ? ' (Formula-neutralised text.)' : ''}`,
        ]),
      ),
      '',
    );
  }

  if (d.tables.some((t) => t.columns.some((c) => c.name === 'qc_verdict')))
    push(...localCodebookSection(), '');
  const measures = describeMeasures(d.request);
  push(
    '## Measures',
    '',
    "Each measure as the service's specification defines it, with its column name (the `measure` value in the long form and summary, the column in the wide form). Reference values are published figures from the project's speech-science reference (compiled 2026-11-22), with that document's evidence level: V verified in the source, V2 verified only in a secondary text, D derived from verified figures. Unsourced figures are left out. They come from other instruments and tasks: read them as context, not as norms for these values.",
    '',
  );
  for (const m of measures) {
    const def = m.def;
    push(`### \`${def.key}\`: ${ANALYSIS_LABEL[def.analysis]}, ${def.label}`, '');
    push(`- Meaning (specification): ${def.meaning}.`);
    push(
      `- Kind: ${def.kind}; values: ${def.valueType}${def.unit ? `, in ${def.unit}` : ''}${def.range ? `, ${def.range[0]} to ${def.range[1]}` : ''}.`,
    );
    if (def.allowed) push(`- Allowed values, in order: ${def.allowed.map(code).join(', ')}.`);
    else if (def.valueType === 'category')
      push('- Allowed values: not given by the specification; exported as the service sends them.');
    push(
      `- Wire field: v1.3 ${m.v13 ? code(m.v13) : 'none'}; v1.2 ${m.v12 ? code(m.v12) : 'none (not in v1.2)'}.`,
    );
    for (const r of m.references) push(`- Reference (${r.evidence}): ${r.text} Source: ${r.source}.`);
    if (m.references.length === 0) push("- Reference values: none with a source in the project's reference.");
    push('');
  }

  push(
    '## Data-quality flags',
    '',
    "The service's answers are read part by part, and a value that departs from the specification (a rating outside the listed classes, a score out of its range, text where a number belongs, a receipt that does not match what was sent…) is kept as received and flagged, never thrown away. The long form names the flags of each value in `flags`; the wide form gives each recording's `flag_count` and a `flags` summary; `data_quality.csv` has one row per flag with what came and what was expected; `answers_as_received.csv` keeps every analysis object as received, including analysis types the specification does not describe (reported by the service, not described by the specification). Because kept values may lie outside the specification's classes and ranges, datapackage.json declares no enum or range constraints on measure columns; the allowed values are in each measure's description and below. Every code:",
    '',
    ...table(
      ['Code', 'Meaning'],
      DATA_QUALITY_CODES.map((c) => [code(c), DATA_QUALITY[c].meaning]),
    ),
    '',
  );
  push(
    '## Missing-data codes',
    '',
    'Every expected visit of every participant is a row of `visits.csv`: with the recording its values come from, or with one of these codes in `missing_reason` (REDCap-style missing-data codes) and the particular in `missing_detail`. `completeness.csv` counts them per visit. The SPSS and Stata forms are what the statistics scripts declare as user-missing and extended-missing values. When a visit has several recordings and none is usable, the code is the one nearest to a result: in progress, held, timed out, failed, refused by the service, refused locally, excluded.',
    '',
    ...table(
      ['Code', 'Reason', 'SPSS', 'Stata', 'Label', 'Meaning'],
      MISSING_REASONS.map((m) => [code(m.code), m.reason, String(m.spss), m.stata, m.label, m.meaning]),
    ),
    '',
  );
  push(
    '## From v1.2 to v1.3',
    '',
    "Both versions report the same measures under different field names. Every value is exported under the catalogue key below, whatever version it came through; `api_version` says which. v1.3 omits a value that is not available and v1.2 sends null: both become an empty cell. `communication_coach` exists only in v1.3. The wellbeing ratings are `rating` in v1.3 and `result` in v1.2; the Parkinson's band and score are `insights.parkinsons.rating`/`score` in v1.3 and `predictions.risk_band`/`risk_score` in v1.2; the Alzheimer's class and probabilities are `insights.cognition` in v1.3 and flat `predictions.*_probability` fields in v1.2.",
    '',
  );
  push(
    ...table(
      ['Column', 'Analysis', 'v1.3 field', 'v1.2 field'],
      measures.map((m) => [
        code(m.def.key),
        `${m.def.analysis} (${ANALYSIS_PREFIX[m.def.analysis]})`,
        m.v13 ? code(m.v13) : '',
        m.v12 ? code(m.v12) : 'not in v1.2',
      ]),
    ),
    '',
  );
  return `${out.join('\n')}\n`;
};
