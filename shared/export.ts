/**
 * Indicator spreadsheets: what the researcher asks for (ExportRequest), what the exporter reports while
 * it runs and when it is done, why it refused, and the column schema every exported file is written
 * from. Plain serialisable data, so the IPC contract, the command line and the main-process exporter
 * share one definition. The column schema itself is built in main/export/schema.ts from the measure
 * catalogue (shared/api/measures.ts); the types it fills are here so the UI can show columns too.
 */
import { z } from 'zod';
import { AnalysisType, ApiVersion } from './api/vocabulary';
import { codeRef, labelText, LIMITS, listOf, plainText, strict } from './contract/bounds';
import { ANALYSIS_STATES } from './states';
import { isTimeZone } from './time-zone';

// ---- the request ----

export const EXPORT_FORMS = ['long', 'wide', 'summary'] as const;
export const ExportForm = z.enum(EXPORT_FORMS);
export type ExportForm = z.infer<typeof ExportForm>;

/** `excel` adds a UTF-8 byte order mark so Excel on Windows reads the files as UTF-8; `standard` has none (base R's read.csv would turn it into part of the first column's name). */
export const EXPORT_PRESETS = ['standard', 'excel'] as const;
export const ExportPreset = z.enum(EXPORT_PRESETS);
export type ExportPreset = z.infer<typeof ExportPreset>;

/**
 * Files for statistics packages, written beside the CSVs from the same column schema: `spss` the SPSS
 * syntax load.sps (also runs in GNU PSPP), `stata` the do-file load.do, `xlsx` the Excel workbook
 * study.xlsx (a sheet per CSV and a codebook sheet). load.R and load.py are always written.
 */
export const EXPORT_EXTRAS = ['spss', 'stata', 'xlsx'] as const;
export const ExportExtra = z.enum(EXPORT_EXTRAS);
export type ExportExtra = z.infer<typeof ExportExtra>;
/** The file each extra writes. */
export const EXTRA_FILE = {
  spss: 'load.sps',
  stata: 'load.do',
  xlsx: 'study.xlsx',
} as const satisfies Record<ExportExtra, string>;

/** The states a researcher can select analyses by: the study database's own (shared/states.ts). */
export const ExportAnalysisState = z.enum(ANALYSIS_STATES);

/** A calendar day (the whole day in the export's time zone) or an instant with its offset. */
export const ExportBound = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

export const ExportRequestSchema = strict({
  studyId: z.int().positive(),
  /** Participant codes; absent: every participant. */
  participants: listOf(codeRef(), LIMITS.codes).min(1).optional(),
  /** recorded_at on or after (a date: from the start of that day in `timeZone`). */
  from: ExportBound.optional(),
  /** recorded_at on or before (a date: to the end of that day in `timeZone`). */
  to: ExportBound.optional(),
  /** Session labels; the empty string selects recordings without one. Absent: every session. */
  sessions: listOf(labelText(), LIMITS.sessions).min(1).optional(),
  /** Analysis types; absent: all four. */
  analyses: listOf(AnalysisType, 16).min(1).optional(),
  /** States of an analysis type for it to be exported; absent: every state (failed and pending types are exported with empty values). */
  states: listOf(ExportAnalysisState, 16).min(1).optional(),
  forms: listOf(ExportForm, 8)
    .min(1)
    .default([...EXPORT_FORMS]),
  preset: ExportPreset.default('standard'),
  /** Files for SPSS, Stata and Excel beside the CSVs; absent: none (load.R and load.py are always written). */
  extras: listOf(ExportExtra, 8).default([]),
  /** Also write participant_accounts.csv, the only file that links participant codes to the service's account ids. */
  includeLinkFile: z.boolean().default(false),
  /** Sessions in the per-participant summary's baseline: the first k of each participant, measure and API version (the timeline's baseline, shared/baseline.ts); absent, the study's setting. */
  baselineSessions: z.int().min(1).max(20).optional(),
  /** IANA zone of the `*_local` columns and of date-only bounds, e.g. Europe/Berlin. */
  timeZone: plainText(LIMITS.timeZone).refine(isTimeZone, {
    message: 'not a time zone name this computer knows (expected an IANA name such as Europe/Berlin)',
  }),
});
export type ExportRequestInput = z.input<typeof ExportRequestSchema>;
export type ExportRequest = z.output<typeof ExportRequestSchema>;

// ---- progress, report, refusal ----

export const EXPORT_STAGES = ['preparing', 'writing', 'describing', 'done'] as const;
export const ExportProgressSchema = z.object({
  stage: z.enum(EXPORT_STAGES),
  recordingsDone: z.int().nonnegative(),
  recordingsTotal: z.int().nonnegative(),
  rowsWritten: z.int().nonnegative(),
  bytesWritten: z.int().nonnegative(),
});
export type ExportProgress = z.infer<typeof ExportProgressSchema>;

export const FILE_ROLES = [
  'data',
  'provenance',
  'link',
  'codebook',
  'datapackage',
  'loader',
  'workbook',
  'checksums',
] as const;
export const FileRole = z.enum(FILE_ROLES);
export type FileRole = z.infer<typeof FileRole>;

export const WrittenFileSchema = z.object({
  name: z.string(),
  role: FileRole,
  /** Data rows (header excluded); null for files that are not tables. */
  rows: z.int().nonnegative().nullable(),
  bytes: z.int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type WrittenFile = z.infer<typeof WrittenFileSchema>;

export const ExportCountsSchema = z.object({
  participants: z.int().nonnegative(),
  recordings: z.int().nonnegative(),
  /** (recording, analysis type) pairs exported. */
  analyses: z.int().nonnegative(),
  /** Measure values the service provided. */
  values: z.int().nonnegative(),
  /** Measure cells left empty because the service did not provide a value (analysis failed, pending, or value omitted). */
  missing: z.int().nonnegative(),
  simulatedRecordings: z.int().nonnegative(),
});
export type ExportCounts = z.infer<typeof ExportCountsSchema>;

export const ExportReportSchema = z.object({
  /** Absolute path of the folder written (for "show in folder"); never written into the files. */
  directory: z.string(),
  folderName: z.string(),
  files: z.array(WrittenFileSchema),
  counts: ExportCountsSchema,
  anySimulated: z.boolean(),
  apiVersions: z.array(ApiVersion),
  exportedAt: z.iso.datetime({ offset: true }),
  appVersion: z.string(),
  request: ExportRequestSchema,
});
export type ExportReport = z.infer<typeof ExportReportSchema>;

export const EXPORT_PROBLEMS = [
  'invalid_request',
  'unknown_study',
  'empty_selection',
  'folder_exists',
  'folder_unwritable',
  'disk_full',
  'cancelled',
  'failed',
] as const;
export const ExportProblemSchema = z.object({
  code: z.enum(EXPORT_PROBLEMS),
  /** What happened, in the researcher's words. */
  message: z.string(),
  /** What to do about it. */
  action: z.string(),
});
export type ExportProblem = z.infer<typeof ExportProblemSchema>;

// ---- the column schema ----

/** Frictionless Table Schema field types used by the exports. */
export const COLUMN_TYPES = ['string', 'integer', 'number', 'boolean', 'datetime'] as const;

export const ColumnDefSchema = z.object({
  /** The header: ASCII snake_case, at most 32 characters, starts with a letter (SPSS and SAS accept it). */
  name: z.string().regex(/^[a-z][a-z0-9_]{0,31}$/),
  title: z.string(),
  type: z.enum(COLUMN_TYPES),
  /** For datetimes: `utc` is ISO 8601 with Z; `local` is `YYYY-MM-DD HH:MM:SS` in the export's time zone (Excel parses it). */
  timeFormat: z.enum(['utc', 'local']).optional(),
  description: z.string(),
  unit: z.string().optional(),
  /** Allowed values, in their documented order. */
  enum: z.array(z.string()).optional(),
  range: z.tuple([z.number(), z.number()]).optional(),
  /** Never empty. */
  required: z.boolean(),
  /** Free text that may start with =, +, -, @, TAB, CR or ': such cells get a leading ' (see the codebook). */
  neutralised: z.boolean(),
  /** The catalogue key when the column holds one measure (wide form). */
  measure: z.string().optional(),
});
export type ColumnDef = z.infer<typeof ColumnDefSchema>;

export const FileDefSchema = z.object({
  name: z.string(),
  role: FileRole,
  title: z.string(),
  /** What one row is. */
  rowIs: z.string(),
  description: z.string(),
  primaryKey: z.array(z.string()),
  foreignKeys: z.array(
    z.object({ fields: z.array(z.string()), resource: z.string(), referenceFields: z.array(z.string()) }),
  ),
  columns: z.array(ColumnDefSchema),
});
export type FileDef = z.infer<typeof FileDefSchema>;

/** Column-name prefix of each analysis type, the same as the catalogue keys' (`pd_` for parkinsons). */
export const ANALYSIS_PREFIX = {
  wellbeing: 'wb',
  parkinsons: 'pd',
  alzheimers: 'ad',
  communication_coach: 'cc',
} as const satisfies Record<AnalysisType, string>;
