/**
 * What the codebook, datapackage.json and the loader scripts all say about an export: its settings,
 * the files written, and the measures with their wire paths and reference values. Gathered once so the
 * three descriptions cannot disagree.
 */
import { MEASURES, type MeasureDef } from '../../shared/api/measures';
import { EXTRA_FILE, type ExportRequest, type FileDef, type WrittenFile } from '../../shared/export';
import { REFERENCE_VALUES, type ReferenceValue } from './reference-values';
import { selectedMeasures } from './schema';
import type { WithheldColumn } from './withheld';

export interface ExportDescription {
  readonly studyName: string;
  readonly studyId: number;
  readonly request: ExportRequest;
  readonly appVersion: string;
  readonly dbSchemaVersion: number;
  readonly exportedAt: string;
  readonly tables: readonly FileDef[];
  /** Columns left out because the login may not read what they are read from (a team study's analyst). */
  readonly withheld: readonly WithheldColumn[];
  /** Data files written so far (tables and loaders), with their hashes. */
  readonly written: readonly WrittenFile[];
  readonly recordings: number;
  readonly participants: number;
  readonly simulatedRecordings: number;
  readonly apiVersions: readonly string[];
}

export interface MeasureDescription {
  readonly def: MeasureDef;
  readonly v13: string | null;
  readonly v12: string | null;
  readonly references: readonly ReferenceValue[];
}

export const describeMeasures = (req: Pick<ExportRequest, 'analyses'>): MeasureDescription[] =>
  selectedMeasures(req).map((def) => ({
    def,
    v13: def.path['v1.3'] ? `analysis.${def.analysis}.${def.path['v1.3'].join('.')}` : null,
    v12: def.path['v1.2'] ? `analysis.${def.analysis}.${def.path['v1.2'].join('.')}` : null,
    references: REFERENCE_VALUES[def.key] ?? [],
  }));

/** Keys of REFERENCE_VALUES that are not catalogue measures (a unit test expects none). */
export const unknownReferenceKeys = (): string[] =>
  Object.keys(REFERENCE_VALUES).filter((k) => !MEASURES.some((m) => m.key === k));

/** The warning every export opens with when some of its values are simulated; null when none are. */
export const simulatedWarning = (simulated: number, recordings: number): string | null =>
  simulated === 0
    ? null
    : `${simulated} of the ${recordings} recordings in this export carry values produced by the Voicescope sandbox, a simulation of the service (column \`simulated\` = true in every file that holds them). They are not measurements of anyone's speech and must not be analysed as data.`;

export const settingsRows = (d: ExportDescription): [string, string][] => {
  const r = d.request;
  const list = (xs: readonly string[] | undefined, all: string) =>
    xs === undefined ? all : xs.map((x) => JSON.stringify(x)).join(', ');
  return [
    ['Study', `${JSON.stringify(d.studyName)} (study ${d.studyId})`],
    ['Participants', list(r.participants, 'all')],
    ['Recorded from', r.from ?? 'no lower bound'],
    ['Recorded to', r.to ?? 'no upper bound'],
    ['Sessions', list(r.sessions, 'all')],
    ['Analysis types', list(r.analyses, 'all')],
    ['Analysis states', list(r.states, 'all')],
    ['Forms', r.forms.join(', ')],
    [
      'Files for statistics packages',
      r.extras.length === 0
        ? 'none (load.R and load.py are always written)'
        : r.extras.map((x) => `${x}: ${EXTRA_FILE[x]}`).join(', '),
    ],
    [
      'Preset',
      r.preset === 'excel'
        ? 'excel: UTF-8 with a byte order mark (BOM)'
        : 'standard: UTF-8 without a byte order mark',
    ],
    ['Time zone of the *_local columns and of date bounds', r.timeZone],
    [
      'Baseline sessions (per-participant summary)',
      `${r.baselineSessions}: the baseline is the mean and SD of the first ${r.baselineSessions} value${r.baselineSessions === 1 ? '' : 's'} of each participant, measure and API version, given only once all ${r.baselineSessions} exist, as in the app's participant timeline${r.forms.includes('summary') ? '' : ' (no summary in this export)'}`,
    ],
    [
      'Participant-to-account link file',
      r.includeLinkFile ? 'written (participant_accounts.csv)' : 'not written',
    ],
    ['Recordings exported', String(d.recordings)],
    ['Participants exported', String(d.participants)],
    ['Recordings with simulated values', String(d.simulatedRecordings)],
    ['API versions in the data', d.apiVersions.length ? d.apiVersions.join(', ') : 'none'],
    ['Application', `Voicescope ${d.appVersion}`],
    ['Study database schema version', String(d.dbSchemaVersion)],
    ['Exported at (UTC)', d.exportedAt],
  ];
};

export const CONVENTIONS: readonly string[] = [
  'Comma-separated values as in RFC 4180: a header row, CRLF line ends, the same number of fields in every row; a field holding a comma, a double quote or a line break is enclosed in double quotes and its quotes are doubled.',
  "Text is UTF-8. The standard preset has no byte order mark (base R's read.csv and Python's csv module read it cleanly); the Excel preset starts every CSV with one so that Excel on Windows recognises UTF-8.",
  "Numbers use `.` as the decimal separator whatever the computer's language, with no thousands separator; very small or large numbers may be written in exponent form (1e-7), which R, pandas, SPSS and Excel read.",
  'An empty cell means "no value": the service did not provide it, the analysis failed or is pending, or the column does not apply. A missing value is never written as 0. Read with na.strings = "" in R and keep_default_na=False, na_values=[""] in pandas, so that a participant code such as NA stays text.',
  'Booleans are `true` and `false`.',
  "Columns ending in `_utc` hold ISO 8601 instants in UTC (2024-03-05T09:30:00Z). Each has a `_local` twin with the same instant as wall-clock time `YYYY-MM-DD HH:MM:SS` in the export's time zone, which Excel reads as a date and time.",
  "Free-text cells (participant codes, sessions, file names, categories the specification leaves open) that start with =, +, -, @, a tab, a carriage return or ' get one leading ' so that spreadsheets do not run them as formulas. To restore the text, drop one leading ' (load.R and load.py do). Numeric columns are never changed: a negative value stays a number.",
  "Rows are ordered by participant code (byte order), recording time and recording number; measures by the catalogue's order. The same selection of the same data gives byte-identical CSV files; only the export time in the codebook and datapackage.json differs.",
  "Categories are the service's own codes (low, moderate, high, …), listed in their documented order.",
  'The files contain no folder paths and no service account ids, except participant_accounts.csv when it was asked for.',
];

/** JSON of the request, for the machine-readable settings and the codebook's exact listing. */
export const requestJson = (r: ExportRequest): Record<string, unknown> =>
  JSON.parse(JSON.stringify(r)) as Record<string, unknown>;
