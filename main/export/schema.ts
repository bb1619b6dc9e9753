/**
 * The column schema: every file an export writes, each column with its name, type, unit, allowed
 * values and meaning, and the function that reads its value. The CSV writers take their headers and
 * cells from here and the codebook, datapackage.json and the loader scripts take their descriptions
 * from here, so a column cannot be written without being described, nor described differently from
 * how it is written. Measure columns and values come from the catalogue (shared/api/measures.ts).
 */
import { DATA_QUALITY, DATA_QUALITY_CODES } from '../../shared/api/data-quality';
import { MEASURE_KINDS, MEASURES, type MeasureDef } from '../../shared/api/measures';
import { ANALYSIS_LABEL, ANALYSIS_TYPES, API_VERSIONS, type AnalysisType } from '../../shared/api/vocabulary';
import { DEFAULT_BASELINE_SESSIONS } from '../../shared/baseline';
import {
  CHANGE_VERDICT_LABEL,
  CHANGE_VERDICTS,
  DEGENERATE_SD_FRACTION,
  MIN_COHORT_PARTICIPANTS,
  RELIABLE_RCI,
  SD_SOURCES,
  type ChangeStats,
} from '../../shared/change';
import { RELIABILITY_SOURCES } from '../../shared/reliability';
import {
  ANALYSIS_PREFIX,
  type ExportForm,
  type ExportRequest,
  type FileDef,
  type FileRole,
} from '../../shared/export';
import { ANALYSIS_STATES, RECORDED_AT_SOURCES, UPLOAD_STATES } from '../../shared/states';
import type { AnswerAsReceived, StoredFlag } from '../db/repos/data-quality.repo';
import type { StoredMeasurement } from '../db/repos/local-measures.repo';
import { col, fileNameOf, type ColumnExtra, type ExportColumn, type Scope } from './column';
import {
  LOCAL_ANALYSIS,
  LOCAL_MEASURE_DEFS,
  localMeasureColumns,
  qualityColumns,
  type LocalMeasureDef,
  type LocalPairView,
} from './local-columns';
import type { LocalTime } from './time';
import { completenessFile, visitColumns, visitsFile, type VisitCells, type VisitRowCtx } from './visit-files';
import type { CompletenessLine } from '../../shared/visit-accounting';

// ---- what the writers hand to the columns ----

export interface RecordingView {
  readonly id: number;
  readonly participantId: number;
  readonly participant: string;
  readonly session: string | null;
  readonly recordedAt: string;
  readonly recordedAtSource: string;
  readonly sourcePath: string;
  readonly sha256: string;
  readonly sizeBytes: number;
  readonly format: string | null;
  readonly sampleRateHz: number | null;
  readonly durationSeconds: number | null;
  readonly speechEstimateSeconds: number | null;
  readonly converted: number;
  readonly uploadState: string;
  readonly recordingId: string | null;
  readonly apiVersion: string | null;
  readonly resultSource: string | null;
  readonly uploadedAt: string | null;
  readonly svcFormat: string | null;
  readonly svcSizeBytes: number | null;
  readonly svcSampleRateHz: number | null;
  readonly svcBitRateBps: number | null;
  readonly svcDurationSeconds: number | null;
  readonly svcSpeechSeconds: number | null;
  readonly batchId: number | null;
  readonly isolate: number | null;
  /** Curation (migration 0120): when and why the recording was excluded from analysis; null: included. */
  readonly excludedAt: string | null;
  readonly excludedReason: string | null;
  /** JSON array of provenance notes ({at, note, act}); null when there are none. */
  readonly provenance: string | null;
}

export interface PairView {
  readonly type: AnalysisType;
  readonly state: string;
}

export type MeasureValue = number | string;

/** One recording with its times already formatted (once per recording, not once per row). */
export interface RecordingCtx {
  readonly r: RecordingView;
  readonly recordedUtc: string | null;
  readonly recorded: LocalTime | null;
  readonly uploadedUtc: string | null;
  readonly uploaded: LocalTime | null;
  /** The recording's data-quality flags (receipt, receipt check, polls); usually none. */
  readonly flags: readonly StoredFlag[];
  /** The recording's local acoustic measures and quality control; null or absent when not measured. */
  readonly local?: StoredMeasurement | null;
  /** The recording's visit in the study's schedule (visit-files.ts). */
  readonly visit: VisitCells;
}

export interface WideCtx extends RecordingCtx {
  /** The exported analysis types of this recording. */
  readonly pairs: ReadonlyMap<AnalysisType, PairView>;
  readonly values: Readonly<Record<string, MeasureValue>>;
}

export interface LongCtx extends RecordingCtx {
  /** An analysis type of the service, or the local acoustic measures (local-columns.ts). */
  readonly pair: PairView | LocalPairView;
  readonly measure: MeasureDef | LocalMeasureDef;
  readonly value: MeasureValue | undefined;
}

/** The recording a summary value came from, with its time as stored (ordering, baseline) and as written. */
export interface SummaryAt {
  readonly recording: number;
  readonly recordedAt: string;
  readonly utc: string | null;
  readonly local: LocalTime | null;
}

export interface SummaryPoint extends SummaryAt {
  readonly value: MeasureValue;
}

/** One participant, measure and API version (or the one row of a measure without values: apiVersion null, n = 0). */
export interface SummaryCtx {
  readonly participant: string;
  readonly measure: MeasureDef;
  readonly apiVersion: string | null;
  readonly n: number;
  readonly baselineN: number;
  readonly baselineFrom: SummaryAt | null;
  readonly baselineTo: SummaryAt | null;
  /** Mean of the baseline values (numeric measures). */
  readonly baseline: number | null;
  readonly baselineSd: number | null;
  /** The first value (categories). */
  readonly baselineCategory: string | null;
  readonly latest: SummaryPoint | null;
  /** The change statistics (shared/change.ts); null for categories and when n = 0. */
  readonly change: ChangeStats | null;
  readonly mean: number | null;
  readonly sd: number | null;
  readonly simulated: boolean;
}

/** One data-quality flag of a recording, numbered within it. */
export interface FlagCtx {
  readonly recording: number;
  readonly n: number;
  readonly flag: StoredFlag;
}

/** One analysis object of a recording exactly as the service last sent it. */
export interface AnswerCtx {
  readonly answer: AnswerAsReceived;
}

export interface LinkCtx {
  readonly participant: string;
  readonly accountId: string | null;
  readonly createdUtc: string | null;
  readonly created: LocalTime | null;
}

// ---- building blocks ----

const numOrNull = (v: MeasureValue | undefined): number | null => (typeof v === 'number' ? v : null);
const textOrNull = (v: MeasureValue | undefined): string | null => (typeof v === 'string' ? v : null);
const simulatedOf = (source: string | null): boolean | null =>
  source === null ? null : source === 'simulated';
const provenanceText = (json: string | null): string | null =>
  json === null ? null : (JSON.parse(json) as { note: string }[]).map((n) => n.note).join(' | ') || null;

const SIMULATED_MEANING =
  'true: the values of this recording were produced by the Voicescope sandbox, a simulation of the service, and are not measurements; false: returned by the real service. Never analyse simulated values as data.';

/** Columns that identify a recording and its time; the first columns of recordings.csv and of the wide file. */
const recordingColumns = <C extends RecordingCtx>(tz: string): ExportColumn<C>[] => [
  col<C>(
    'recording',
    'integer',
    'Recording',
    "The workstation's number for this recording (the id the app and the voicescope command show). Joins the files of an export.",
    (c) => c.r.id,
    { required: true },
  ),
  col<C>(
    'participant',
    'string',
    'Participant',
    "The participant's code: the researcher's pseudonym, as imported.",
    (c) => c.r.participant,
    { required: true, neutralised: true },
  ),
  col<C>(
    'session',
    'string',
    'Session',
    'Session label from the import manifest or the file name; empty when the recording has none.',
    (c) => c.r.session,
    { neutralised: true },
  ),
  ...visitColumns<C>(),
  col<C>(
    'recorded_at_utc',
    'datetime',
    'Recorded at (UTC)',
    'When the recording began, in UTC.',
    (c) => c.recordedUtc,
    { timeFormat: 'utc', required: true },
  ),
  col<C>(
    'recorded_at_local',
    'datetime',
    `Recorded at (${tz})`,
    `When the recording began, as wall-clock time in ${tz}.`,
    (c) => c.recorded?.local,
    { timeFormat: 'local', required: true },
  ),
  col<C>(
    'utc_offset',
    'string',
    'UTC offset',
    `Offset of ${tz} from UTC at that instant (+HH:MM), so the local time can be turned back into UTC.`,
    (c) => c.recorded?.offset,
    { required: true },
  ),
];

const provenanceColumns = <C extends RecordingCtx>(tz: string): ExportColumn<C>[] => [
  col<C>(
    'recorded_at_source',
    'string',
    'Source of recorded_at',
    "Where the recording time came from: the import manifest, the file name, the date embedded in the file, the file's modification time, or the researcher.",
    (c) => c.r.recordedAtSource,
    { enum: [...RECORDED_AT_SOURCES], required: true },
  ),
  col<C>(
    'file_name',
    'string',
    'File name',
    'Name of the original audio file (the name only, never its folder).',
    (c) => fileNameOf(c.r.sourcePath),
    { required: true, neutralised: true },
  ),
  col<C>('file_size_bytes', 'integer', 'File size', 'Size of the original file.', (c) => c.r.sizeBytes, {
    unit: 'bytes',
    required: true,
  }),
  col<C>(
    'content_sha256',
    'string',
    'Content SHA-256',
    "SHA-256 of the original file's bytes (hexadecimal): identifies the audio whatever its name.",
    (c) => c.r.sha256,
    { required: true },
  ),
  col<C>(
    'file_format',
    'string',
    'File format',
    'Container format of the original file as the workstation read it (wav, mp3, mp4, ogg).',
    (c) => c.r.format,
  ),
  col<C>(
    'file_sample_rate_hz',
    'integer',
    'File sample rate',
    'Sample rate of the original file as the workstation read it.',
    (c) => c.r.sampleRateHz,
    { unit: 'Hz' },
  ),
  col<C>(
    'file_duration_seconds',
    'number',
    'File duration',
    'Duration of the original file as the workstation read it.',
    (c) => c.r.durationSeconds,
    { unit: 's' },
  ),
  col<C>(
    'speech_estimate_seconds',
    'number',
    'Speech estimate',
    "The workstation's own estimate of speech time before upload (WAV files only; the service's figure is speech_duration_seconds).",
    (c) => c.r.speechEstimateSeconds,
    { unit: 's' },
  ),
  col<C>(
    'converted',
    'boolean',
    'Converted copy uploaded',
    'true: a converted copy (mono, 16 kHz WAV) was uploaded instead of the original; the original was not changed.',
    (c) => c.r.converted === 1,
    { required: true },
  ),
  col<C>(
    'upload_state',
    'string',
    'Upload state',
    'State of the upload in the workstation.',
    (c) => c.r.uploadState,
    { enum: [...UPLOAD_STATES], required: true },
  ),
  col<C>(
    'excluded',
    'boolean',
    'Excluded from analysis',
    "true: the researcher excluded this recording from analysis (the reason is in excluded_reason). Its row and values stay in the export; it does not count in participant_summary.csv's baselines and latest values, nor as the participant's latest recording.",
    (c) => c.r.excludedAt !== null,
    { required: true },
  ),
  col<C>(
    'excluded_reason',
    'string',
    'Reason for exclusion',
    "The researcher's reason for excluding the recording, as written; empty when it is not excluded.",
    (c) => c.r.excludedReason,
    { neutralised: true },
  ),
  col<C>(
    'provenance',
    'string',
    'Provenance notes',
    'What happened to the recording that an analyst must know, oldest first, separated by " | " (e.g. reassigned to another participant after upload: the service analysed it under the first participant\'s account). Empty when there is nothing to note.',
    (c) => provenanceText(c.r.provenance),
    { neutralised: true },
  ),
  col<C>(
    'recording_id',
    'string',
    'Service recording id',
    "The service's id of the uploaded recording (UUID); empty if it was never accepted.",
    (c) => c.r.recordingId,
  ),
  col<C>(
    'api_version',
    'string',
    'API version',
    'Version of the service\'s interface the recording was uploaded and analysed through. Measures are the same in both; see "From v1.2 to v1.3".',
    (c) => c.r.apiVersion,
    { enum: [...API_VERSIONS] },
  ),
  col<C>('simulated', 'boolean', 'Simulated', SIMULATED_MEANING, (c) => simulatedOf(c.r.resultSource)),
  col<C>(
    'uploaded_at_utc',
    'datetime',
    'Uploaded at (UTC)',
    'When the service received the upload, in UTC.',
    (c) => c.uploadedUtc,
    { timeFormat: 'utc' },
  ),
  col<C>(
    'uploaded_at_local',
    'datetime',
    `Uploaded at (${tz})`,
    `When the service received the upload, as wall-clock time in ${tz}.`,
    (c) => c.uploaded?.local,
    { timeFormat: 'local' },
  ),
  col<C>(
    'audio_file_format',
    'string',
    'Format (service)',
    "Format the service detected (the service's audio_file_format).",
    (c) => c.r.svcFormat,
  ),
  col<C>(
    'audio_size_bytes',
    'integer',
    'Size (service)',
    'Size of the audio the service analysed; with isolate_oldest_speaker, of the retained audio.',
    (c) => c.r.svcSizeBytes,
    { unit: 'bytes' },
  ),
  col<C>(
    'audio_sample_rate_hz',
    'integer',
    'Sample rate (service)',
    'Sample rate the service reported.',
    (c) => c.r.svcSampleRateHz,
    { unit: 'Hz' },
  ),
  col<C>(
    'audio_bit_rate_bps',
    'integer',
    'Bit rate (service)',
    'Bit rate the service reported.',
    (c) => c.r.svcBitRateBps,
    { unit: 'bits/s' },
  ),
  col<C>(
    'audio_duration_seconds',
    'number',
    'Duration (service)',
    "Total seconds the service analysed; with isolate_oldest_speaker, the retained speaker's audio.",
    (c) => c.r.svcDurationSeconds,
    { unit: 's' },
  ),
  col<C>(
    'speech_duration_seconds',
    'number',
    'Speech duration (service)',
    "Seconds of speech the service detected; with isolate_oldest_speaker, the isolated speaker's speech.",
    (c) => c.r.svcSpeechSeconds,
    { unit: 's' },
  ),
  col<C>(
    'isolate_oldest_speaker',
    'boolean',
    'Oldest speaker isolated',
    'true: the service was asked to keep only the speaker it estimated to be oldest (v1.3 only).',
    (c) => (c.r.isolate === null ? null : c.r.isolate === 1),
  ),
  col<C>(
    'batch',
    'integer',
    'Import batch',
    "The workstation's number of the import batch.",
    (c) => c.r.batchId,
  ),
];

const measureColumn = (m: MeasureDef): ExportColumn<WideCtx> => {
  const isCategory = m.valueType === 'category';
  const extra: ColumnExtra = { measure: m.key };
  if (m.unit !== null) extra.unit = m.unit;
  // No enum or range constraint: a value outside what the specification allows is kept as received and
  // flagged (docs/export.md, "Data quality"), so the declared constraints would be violated by kept data.
  const specified = m.allowed
    ? ` The specification allows ${m.allowed.join(', ')}.`
    : m.range
      ? ` The specification gives the range ${m.range[0]} to ${m.range[1]}.`
      : '';
  return col<WideCtx>(
    m.key,
    isCategory ? 'string' : m.valueType,
    `${ANALYSIS_LABEL[m.analysis]}: ${m.label}`,
    `${m.meaning}${m.unit ? ` (${m.unit})` : ''}. Empty when the service did not provide it (see ${ANALYSIS_PREFIX[m.analysis]}_state).${specified}${specified ? ' A value outside it is kept as received and named in `flags` (and data_quality.csv).' : ''}`,
    isCategory ? (c) => textOrNull(c.values[m.key]) : (c) => numOrNull(c.values[m.key]),
    // A category the spec leaves open (the Parkinson's band) is free text from the service: neutralised like any.
    { ...extra, neutralised: isCategory && !m.allowed },
  );
};

/** The codes of the flags about one measure of one analysis type, space-separated; empty when none. */
export const flagCodesFor = (flags: readonly StoredFlag[], type: string, measure: string): string | null => {
  if (flags.length === 0) return null;
  const codes = new Set<string>();
  for (const f of flags)
    if ((f.analysisType === type || f.analysisType === null) && f.measures.includes(measure))
      codes.add(f.code);
  return codes.size === 0 ? null : [...codes].join(' ');
};

const FLAGS_MEANING =
  'Data-quality flags: what the service sent that departs from its specification (kept as received). The codebook lists every code with its meaning; data_quality.csv has one row per flag with what was received and what was expected.';

const flagSummaryColumns = <C extends RecordingCtx>(): ExportColumn<C>[] => [
  col<C>(
    'flag_count',
    'integer',
    'Data-quality flags',
    `Number of data-quality flags of this recording (its upload receipt, the receipt's comparison with what was sent, and its analyses). 0: nothing odd. ${FLAGS_MEANING}`,
    (c) => c.flags.length,
    { required: true },
  ),
  col<C>(
    'flags',
    'string',
    'Data-quality flags (summary)',
    `Each flag of this recording as \`code (where)\`, separated by \`; \`; empty when none. ${FLAGS_MEANING}`,
    (c) => (c.flags.length === 0 ? null : c.flags.map((f) => `${f.code} (${f.path})`).join('; ')),
    { neutralised: true },
  ),
];

export const selectedTypes = (req: Pick<ExportRequest, 'analyses'>): AnalysisType[] =>
  ANALYSIS_TYPES.filter((t) => req.analyses === undefined || req.analyses.includes(t));
export const selectedMeasures = (req: Pick<ExportRequest, 'analyses'>): MeasureDef[] => {
  const types = selectedTypes(req);
  return MEASURES.filter((m) => types.includes(m.analysis));
};

const STATE_MEANING =
  'State of this analysis type: completed (values present unless the service omitted one), error (the analysis failed: no values), processing or awaiting_upload (no result yet), timed_out (no result within five minutes; still re-checked), unanswered (no result after the timeout and a day of re-checks; checked again only when the researcher asks), not_requested (the service says it was not requested).';

// ---- the files ----

export const RECORDINGS_FILE = 'recordings.csv';
export const LONG_FILE = 'measures_long.csv';
export const WIDE_FILE = 'measures_wide.csv';
export const SUMMARY_FILE = 'participant_summary.csv';
export const LINK_FILE = 'participant_accounts.csv';

export interface ExportFile<C> extends Omit<FileDef, 'columns'> {
  readonly columns: readonly ExportColumn<C>[];
}

const file = <C, Col extends ExportColumn<C>>(
  name: string,
  role: FileRole,
  title: string,
  rowIs: string,
  description: string,
  primaryKey: string[],
  columns: Col[],
  toRecordings = true,
): ExportFile<C> & { readonly columns: readonly Col[] } => ({
  name,
  role,
  title,
  rowIs,
  description,
  primaryKey,
  columns,
  foreignKeys:
    toRecordings && name !== RECORDINGS_FILE
      ? [{ fields: ['recording'], resource: 'recordings', referenceFields: ['recording'] }]
      : [],
});

/** Whether the study's local acoustic measures are exported (when any recording of it was measured locally). */
export interface LocalOption {
  readonly localMeasures?: boolean;
}

export const recordingsFile = (tz: string, local = false): ExportFile<RecordingCtx> =>
  file(
    RECORDINGS_FILE,
    'provenance',
    'Recordings',
    'one recording',
    "Where every number came from: the audio file (name, size, hash), when it was recorded and uploaded, the service's recording id, the API version and whether the values are simulated. The other files join it on `recording`.",
    ['recording'],
    [
      ...recordingColumns<RecordingCtx>(tz),
      ...provenanceColumns<RecordingCtx>(tz),
      ...(local ? qualityColumns<RecordingCtx>() : []),
    ],
  );

export const wideFile = (
  req: Pick<ExportRequest, 'analyses' | 'timeZone'> & LocalOption,
): ExportFile<WideCtx> => {
  const columns: ExportColumn<WideCtx>[] = [
    ...recordingColumns<WideCtx>(req.timeZone),
    ...provenanceColumns<WideCtx>(req.timeZone),
    ...flagSummaryColumns<WideCtx>(),
  ];
  for (const t of selectedTypes(req)) {
    columns.push(
      col<WideCtx>(
        `${ANALYSIS_PREFIX[t]}_state`,
        'string',
        `${ANALYSIS_LABEL[t]}: state`,
        `${STATE_MEANING} Empty: this type was not requested for this recording, or the export's filters left it out.`,
        (c) => c.pairs.get(t)?.state,
        { enum: [...ANALYSIS_STATES] },
      ),
    );
    for (const m of MEASURES) if (m.analysis === t) columns.push(measureColumn(m));
  }
  if (req.localMeasures) columns.push(...qualityColumns<WideCtx>(), ...localMeasureColumns<WideCtx>());
  return file(
    WIDE_FILE,
    'data',
    'Measures, wide',
    'one recording',
    "One column per measure (catalogue order, grouped by analysis type, each group after its state column), after the recording's provenance. The same columns whatever the data: they depend only on the analysis types chosen.",
    ['recording'],
    columns,
  );
};

/** A long-form column with what its value depends on, so scoped-rows.ts encodes it once per recording, type or measure. */
export type LongColumn = ExportColumn<LongCtx> & { readonly scope: Scope };
const scoped = (scope: Scope, c: ExportColumn<LongCtx>): LongColumn => ({ ...c, scope });

export const longFile = (
  req: Pick<ExportRequest, 'analyses' | 'timeZone'> & LocalOption,
): ExportFile<LongCtx> & { readonly columns: readonly LongColumn[] } => {
  const measures: (MeasureDef | LocalMeasureDef)[] = [
    ...selectedMeasures(req),
    ...(req.localMeasures ? LOCAL_MEASURE_DEFS : []),
  ];
  return file(
    LONG_FILE,
    'data',
    'Measures, long (tidy)',
    'one recording and measure',
    'Every measure of every exported analysis type of every recording, including those the service did not provide (empty value, with analysis_state saying why). Numbers are in `value`, rating classes in `category`.',
    ['recording', 'measure'],
    [
      ...recordingColumns<LongCtx>(req.timeZone)
        .filter((c) => c.name !== 'utc_offset')
        .map((c) => scoped('recording', c)),
      scoped(
        'pair',
        col<LongCtx>(
          'analysis',
          'string',
          'Analysis type',
          `The analysis type the measure belongs to${req.localMeasures ? '; `local`: measured on this machine from the audio, not by the service (see "Local acoustic measures")' : ''}.`,
          (c) => c.pair.type,
          { enum: [...selectedTypes(req), ...(req.localMeasures ? [LOCAL_ANALYSIS] : [])], required: true },
        ),
      ),
      scoped(
        'pair',
        col<LongCtx>('analysis_state', 'string', 'Analysis state', STATE_MEANING, (c) => c.pair.state, {
          enum: [...ANALYSIS_STATES],
          required: true,
        }),
      ),
      scoped(
        'measure',
        col<LongCtx>(
          'measure',
          'string',
          'Measure',
          "The measure's key; the codebook lists each one's meaning, unit, allowed values and reference values.",
          (c) => c.measure.key,
          { enum: measures.map((m) => m.key), required: true },
        ),
      ),
      scoped(
        'measure',
        col<LongCtx>(
          'kind',
          'string',
          'Kind',
          'indicator: a measured acoustic or linguistic quantity; insight: a rating class; score and probability: model outputs.',
          (c) => c.measure.kind,
          { enum: [...MEASURE_KINDS], required: true },
        ),
      ),
      scoped(
        'row',
        col<LongCtx>(
          'value',
          'number',
          'Value',
          'The numeric value, in `unit`. Empty when the service did not provide it, or when the measure is a category (then see `category`). Never 0 for a missing value.',
          (c) => numOrNull(c.value),
        ),
      ),
      scoped(
        'row',
        col<LongCtx>(
          'category',
          'string',
          'Category',
          'The rating class for insight measures (allowed values per measure in the codebook). Empty for numeric measures and when not provided.',
          (c) => textOrNull(c.value),
          { neutralised: true },
        ),
      ),
      scoped(
        'row',
        col<LongCtx>(
          'flags',
          'string',
          'Data-quality flags',
          `The codes of the data-quality flags about this value, separated by spaces; empty when nothing is odd. A flagged value is kept as the service sent it (e.g. a score of 101 with \`score_out_of_range\`, a rating outside the listed classes with \`rating_not_in_enum\`); \`values_while_processing\` beside an empty value: the service sent a value with an analysis it had not completed (kept in answers_as_received.csv, not counted as a result). ${FLAGS_MEANING}`,
          (c) => flagCodesFor(c.flags, c.pair.type, c.measure.key),
        ),
      ),
      scoped(
        'measure',
        col<LongCtx>(
          'unit',
          'string',
          'Unit',
          'Unit of `value`; empty for unitless ratios, probabilities and categories.',
          (c) => c.measure.unit,
        ),
      ),
      scoped(
        'recording',
        col<LongCtx>(
          'api_version',
          'string',
          'API version',
          "Version of the service's interface the value came through.",
          (c) => c.r.apiVersion,
          { enum: [...API_VERSIONS] },
        ),
      ),
      scoped(
        'recording',
        col<LongCtx>('simulated', 'boolean', 'Simulated', SIMULATED_MEANING, (c) =>
          simulatedOf(c.r.resultSource),
        ),
      ),
    ],
  );
};

type SummaryRequest = Pick<ExportRequest, 'analyses' | 'timeZone'> &
  Partial<Pick<ExportRequest, 'baselineSessions'>>;

export const summaryFile = (req: SummaryRequest): ExportFile<SummaryCtx> => {
  const measures = selectedMeasures(req);
  const tz = req.timeZone;
  const k = req.baselineSessions ?? DEFAULT_BASELINE_SESSIONS;
  const first = `the first ${k} value${k === 1 ? '' : 's'} of this participant, measure and API version by recording time, ties broken by recording number`;
  const usable = `usable: present and above ${DEGENERATE_SD_FRACTION} × max(1, |mean|), i.e. not zero up to rounding`;
  const at = (
    name: 'baseline_from' | 'baseline_to',
    title: string,
    which: string,
    pick: (c: SummaryCtx) => SummaryAt | null,
  ): ExportColumn<SummaryCtx>[] => [
    col<SummaryCtx>(
      `${name}_utc`,
      'datetime',
      `${title} (UTC)`,
      `When the recording of ${which} began, in UTC. Empty when n = 0.`,
      (c) => pick(c)?.utc,
      { timeFormat: 'utc' },
    ),
    col<SummaryCtx>(
      `${name}_local`,
      'datetime',
      `${title} (${tz})`,
      `When the recording of ${which} began, as wall-clock time in ${tz}. Empty when n = 0.`,
      (c) => pick(c)?.local?.local,
      { timeFormat: 'local' },
    ),
  ];
  return file(
    SUMMARY_FILE,
    'data',
    'Per-participant summary',
    'one participant, measure and API version',
    `For each participant and each measure of the exported analysis types, one row per API version the participant has values in: v1.2 and v1.3 results come from different models and field definitions, so they are never mixed (a participant with values in both has two rows). Over the recordings of this export: the baseline, i.e. the mean and sample standard deviation of ${first} (k = ${k}), given only once all k are present (with fewer: no baseline yet, and no figure); the latest value; once a value after the baseline exists, its change from the baseline mean, in SDs over the floored SD (the larger usable of the participant's baseline SD and the cohort's pooled within-person SD), and the Jacobson-Truax reliable change index with the measure's test-retest reliability; the least-squares trend per week; the mean and SD of all n values. The cohort reference (sd_cohort_within, rci_sd) is taken over every participant of the study with a complete baseline of this measure and API version, whatever this export selects. This is exactly what the participant timeline in the Voicescope app shows for the same k and reliabilities (one definition in the code, shared/change.ts; docs/change.md): they agree whenever this export holds all of the participant's sessions. Only values the service provided count. A participant with no value of a measure in any version has a single row with n = 0, an empty api_version and empty statistics; api_version is empty on no other row.`,
    ['participant', 'measure', 'api_version'],
    [
      col<SummaryCtx>(
        'participant',
        'string',
        'Participant',
        "The participant's code.",
        (c) => c.participant,
        { required: true, neutralised: true },
      ),
      col<SummaryCtx>(
        'analysis',
        'string',
        'Analysis type',
        'The analysis type the measure belongs to.',
        (c) => c.measure.analysis,
        { enum: selectedTypes(req), required: true },
      ),
      col<SummaryCtx>(
        'measure',
        'string',
        'Measure',
        "The measure's key (see the codebook).",
        (c) => c.measure.key,
        { enum: measures.map((m) => m.key), required: true },
      ),
      col<SummaryCtx>(
        'kind',
        'string',
        'Kind',
        'indicator, insight, score or probability.',
        (c) => c.measure.kind,
        { enum: [...MEASURE_KINDS], required: true },
      ),
      col<SummaryCtx>(
        'unit',
        'string',
        'Unit',
        'Unit of baseline, baseline_sd, latest_value, change, sd_cohort_within, sd_used, rci_sd, s_diff, mean and sd (trend_per_week: this unit per week); empty for unitless ratios, probabilities and categories.',
        (c) => c.measure.unit,
      ),
      col<SummaryCtx>(
        'api_version',
        'string',
        'API version',
        "The version of the service's interface every value of this row came through; the row's statistics use values of this version only. Empty only on the row of a measure the participant has no value of (n = 0).",
        (c) => c.apiVersion,
        { enum: [...API_VERSIONS] },
      ),
      col<SummaryCtx>(
        'n',
        'integer',
        'Values',
        'Number of values the service provided for this participant and measure through this API version, in the recordings of this export. 0: none in any version (then every statistic is empty).',
        (c) => c.n,
        { required: true },
      ),
      col<SummaryCtx>(
        'baseline_n',
        'integer',
        'Baseline sessions',
        `Values present toward the baseline: min(k, n) with k = ${k}. The baseline exists only when baseline_n = ${k}. 0 when n = 0.`,
        (c) => c.baselineN,
        { required: true },
      ),
      ...at(
        'baseline_from',
        'Baseline from',
        'the first baseline value (the first value of this measure and API version)',
        (c) => c.baselineFrom,
      ),
      ...at(
        'baseline_to',
        'Baseline to',
        'the last baseline value (the baseline_n-th value by recording time)',
        (c) => c.baselineTo,
      ),
      col<SummaryCtx>(
        'baseline',
        'number',
        'Baseline (mean)',
        `The within-person baseline: the arithmetic mean of ${first}; in \`unit\`. The same definition as the baseline of the participant timeline in the app. Empty for categories and while fewer than ${k} values exist (no baseline yet).`,
        (c) => c.baseline,
      ),
      col<SummaryCtx>(
        'baseline_sd',
        'number',
        'Baseline SD',
        `Sample standard deviation (k − 1 denominator) of the ${k} baseline values, in \`unit\`: the participant's own SD. Empty without a complete baseline, when k = 1 and for categories.`,
        (c) => c.baselineSd,
      ),
      col<SummaryCtx>(
        'baseline_category',
        'string',
        'Baseline category',
        'Insight measures (categories): the first value by recording time, i.e. the rating at the first baseline session. Empty for numeric measures and when n = 0.',
        (c) => c.baselineCategory,
        { neutralised: true },
      ),
      col<SummaryCtx>(
        'latest_recording',
        'integer',
        'Latest: recording',
        'The recording of the latest value of this measure and API version (the last by recording time, ties by recording number; joins recordings.csv). Empty when n = 0.',
        (c) => c.latest?.recording,
      ),
      col<SummaryCtx>(
        'latest_recorded_at_utc',
        'datetime',
        'Latest: recorded at (UTC)',
        'When the latest recording began, in UTC.',
        (c) => c.latest?.utc,
        { timeFormat: 'utc' },
      ),
      col<SummaryCtx>(
        'latest_recorded_at_local',
        'datetime',
        `Latest: recorded at (${tz})`,
        `When the latest recording began, as wall-clock time in ${tz}.`,
        (c) => c.latest?.local?.local,
        { timeFormat: 'local' },
      ),
      col<SummaryCtx>(
        'latest_value',
        'number',
        'Latest: value',
        'The latest numeric value, in `unit`. Empty for categories and when n = 0.',
        (c) => {
          const v = c.latest?.value;
          return typeof v === 'number' ? v : null;
        },
      ),
      col<SummaryCtx>(
        'latest_category',
        'string',
        'Latest: category',
        'The latest rating class (insight measures). Empty for numeric measures and when n = 0.',
        (c) => {
          const v = c.latest?.value;
          return typeof v === 'string' ? v : null;
        },
        { neutralised: true },
      ),
      col<SummaryCtx>(
        'change_verdict',
        'string',
        'Change: verdict',
        `What can be said of the latest value's change (numeric measures): ${CHANGE_VERDICTS.map((v) => `${v}: ${CHANGE_VERDICT_LABEL[v]}`).join('; ')}. Empty for categories and when n = 0.`,
        (c) => c.change?.verdict,
        { enum: [...CHANGE_VERDICTS] },
      ),
      col<SummaryCtx>(
        'change',
        'number',
        'Change from baseline',
        `latest_value − baseline (the baseline mean), in \`unit\`; the timeline's change from baseline. Only when the baseline is complete and the latest value came after it (n > ${k}); empty otherwise and for categories.`,
        (c) => c.change?.change,
      ),
      col<SummaryCtx>(
        'sd_cohort_within',
        'number',
        'Cohort pooled within-person SD',
        `The SD floor: √(Σ over participants Σ (x − their baseline mean)² / Σ (k − 1)) over the baseline values of every participant of the study with a complete baseline of this measure and API version, in \`unit\`. Empty with fewer than ${MIN_COHORT_PARTICIPANTS} such participants or k = 1.`,
        (c) => c.change?.sdCohortWithin,
      ),
      col<SummaryCtx>(
        'sd_used',
        'number',
        'SD used for change_in_sd',
        `The larger of baseline_sd and sd_cohort_within, taking only those that are ${usable}. Empty when neither is usable (then there is no change_in_sd) or change is empty.`,
        (c) => c.change?.sdUsed,
      ),
      col<SummaryCtx>(
        'sd_source',
        'string',
        'Which SD was used',
        'participant: baseline_sd; cohort: sd_cohort_within (the floor applied). Empty when sd_used is empty.',
        (c) => c.change?.sdSource,
        { enum: [...SD_SOURCES] },
      ),
      col<SummaryCtx>(
        'change_in_sd',
        'number',
        'Change in SDs',
        'change / sd_used. Never over a degenerate SD: empty when sd_used is empty.',
        (c) => c.change?.changeInSd,
      ),
      col<SummaryCtx>(
        'reliability',
        'number',
        'Test-retest reliability (r)',
        "The measure's test-retest reliability used for the reliable change index: the study's setting, else the documented default (docs/change.md, from the research notes' section 10.2). Empty for measures without a published reliability (service scores and probabilities): they get a trend, not a verdict.",
        (c) => c.change?.reliability,
      ),
      col<SummaryCtx>(
        'reliability_source',
        'string',
        'Where the reliability came from',
        'default: the documented default; study: set for this study (voicescope reliability).',
        (c) => c.change?.reliabilitySource,
        { enum: [...RELIABILITY_SOURCES] },
      ),
      col<SummaryCtx>(
        'rci_sd',
        'number',
        'RCI: SD₁ (cohort baseline SD)',
        `Sample SD (N − 1 denominator) of all baseline values together of every participant of the study with a complete baseline of this measure and API version, in \`unit\`. Empty with fewer than ${MIN_COHORT_PARTICIPANTS} such participants.`,
        (c) => c.change?.rciSd,
      ),
      col<SummaryCtx>(
        's_diff',
        'number',
        'RCI: S_diff',
        '√2 · SE with SE = rci_sd · √(1 − reliability) (Jacobson & Truax 1991), in `unit`. Empty when rci is empty.',
        (c) => c.change?.sDiff,
      ),
      col<SummaryCtx>(
        'rci',
        'number',
        'Reliable change index',
        'change / s_diff. Empty when change, reliability or a usable rci_sd is missing.',
        (c) => c.change?.rci,
      ),
      col<SummaryCtx>(
        'reliable_change',
        'boolean',
        'Reliable change',
        `true when |rci| ≥ ${RELIABLE_RCI} (two-sided p < .05), false when rci is below; empty when there is no rci.`,
        (c) => (c.change?.rci == null ? null : Math.abs(c.change.rci) >= RELIABLE_RCI),
      ),
      col<SummaryCtx>(
        'trend_per_week',
        'number',
        'Trend per week',
        'Least-squares slope of all n values over recording time, in `unit` per week (7 × 24 h). Empty with fewer than 3 values, all at one moment, and for categories.',
        (c) => c.change?.trendPerWeek,
      ),
      col<SummaryCtx>(
        'mean',
        'number',
        'Mean',
        'Mean of all n values of this measure and API version (not only the baseline), in `unit`. Empty for categories and when n = 0.',
        (c) => c.mean,
      ),
      col<SummaryCtx>(
        'sd',
        'number',
        'SD',
        'Sample standard deviation (n − 1 denominator) of all n values, in `unit`. Empty when n < 2 and for categories.',
        (c) => c.sd,
      ),
      col<SummaryCtx>(
        'simulated',
        'boolean',
        'Simulated',
        `true when at least one of the n values is simulated. ${SIMULATED_MEANING}`,
        (c) => c.simulated,
        { required: true },
      ),
    ],
    false,
  );
};

export const DATA_QUALITY_FILE = 'data_quality.csv';
export const ANSWERS_FILE = 'answers_as_received.csv';

/** Said of every value the specification does not describe, wherever it is shown. */
export const NOT_IN_SPECIFICATION = 'reported by the service, not described by the specification';

export const dataQualityFile = (): ExportFile<FlagCtx> =>
  file(
    DATA_QUALITY_FILE,
    'provenance',
    'Data-quality flags',
    'one data-quality flag of a recording',
    'Everything the service sent that departs from its specification, for the exported recordings: each value is kept as received, and each departure is listed here with where it was, what came and what the specification expects. The codebook lists every code with its meaning. Written with a header even when there are no flags.',
    ['recording', 'flag'],
    [
      col<FlagCtx>(
        'recording',
        'integer',
        'Recording',
        "The workstation's number for the recording.",
        (c) => c.recording,
        {
          required: true,
        },
      ),
      col<FlagCtx>(
        'flag',
        'integer',
        'Flag number',
        'Number of the flag within its recording, from 1.',
        (c) => c.n,
        {
          required: true,
        },
      ),
      col<FlagCtx>(
        'origin',
        'string',
        'Origin',
        "receipt: the service's answer to the upload; receipt_check: the receipt compared with what was sent and with the workstation's own reading of the file; poll: an answer with analysis results.",
        (c) => c.flag.origin,
        { enum: ['receipt', 'receipt_check', 'poll'], required: true },
      ),
      col<FlagCtx>(
        'analysis',
        'string',
        'Analysis type',
        'The analysis type the flag belongs to; empty for the recording itself (metadata, receipt, unknown analysis types).',
        (c) => c.flag.analysisType,
        { enum: [...ANALYSIS_TYPES] },
      ),
      col<FlagCtx>(
        'code',
        'string',
        'Code',
        'What is odd (see "Data-quality flags" in the codebook).',
        (c) => c.flag.code,
        {
          enum: [...DATA_QUALITY_CODES],
          required: true,
        },
      ),
      col<FlagCtx>(
        'meaning',
        'string',
        'Meaning',
        "The code's meaning, in words.",
        (c) => DATA_QUALITY[c.flag.code].meaning,
        {
          required: true,
        },
      ),
      col<FlagCtx>(
        'path',
        'string',
        'Where',
        "Where in the service's answer, in the specification's names (e.g. analysis.parkinsons.insights.parkinsons.score).",
        (c) => c.flag.path,
        { required: true, neutralised: true },
      ),
      col<FlagCtx>(
        'measures',
        'string',
        'Measures',
        'The measures (catalogue keys, the `measure` of the long form) the flag is about, separated by spaces; empty when it is about no stored measure.',
        (c) => (c.flag.measures.length === 0 ? null : c.flag.measures.join(' ')),
      ),
      col<FlagCtx>(
        'received',
        'string',
        'Received',
        'What the service sent there, as JSON text (cut at 2,000 characters); empty when it sent nothing.',
        (c) => c.flag.received,
        { neutralised: true },
      ),
      col<FlagCtx>(
        'expected',
        'string',
        'Expected',
        'What the specification (or our documented reading of it) expects there.',
        (c) => c.flag.expected,
        {
          required: true,
          neutralised: true,
        },
      ),
    ],
  );

export const answersFile = (): ExportFile<AnswerCtx> =>
  file(
    ANSWERS_FILE,
    'provenance',
    'Analysis answers as received',
    'one analysis object of a recording, as the service last sent it',
    `Every analysis object the service sent for the exported recordings, exactly as received (JSON), unknown members included, so no value is lost: also values sent with an analysis not yet completed, and analysis types the specification does not describe for the API version (marked "${NOT_IN_SPECIFICATION}").`,
    ['recording', 'analysis'],
    [
      col<AnswerCtx>(
        'recording',
        'integer',
        'Recording',
        "The workstation's number for the recording.",
        (c) => c.answer.recordingId,
        {
          required: true,
        },
      ),
      col<AnswerCtx>(
        'analysis',
        'string',
        'Analysis type',
        'The analysis type as the service named it.',
        (c) => c.answer.name,
        { required: true, neutralised: true },
      ),
      col<AnswerCtx>(
        'described',
        'boolean',
        'Described by the specification',
        `false: an analysis type this API version does not list, ${NOT_IN_SPECIFICATION}; its values are only here.`,
        (c) => c.answer.listed,
        { required: true },
      ),
      col<AnswerCtx>(
        'note',
        'string',
        'Note',
        `"${NOT_IN_SPECIFICATION}" for an analysis type the specification does not describe; empty otherwise.`,
        (c) => (c.answer.listed ? null : NOT_IN_SPECIFICATION),
      ),
      col<AnswerCtx>(
        'status_received',
        'string',
        'Status as received',
        'The `status` member exactly as received (JSON text when it was not a string); empty when absent.',
        (c) => c.answer.receivedStatus,
        { neutralised: true },
      ),
      col<AnswerCtx>(
        'raw_json',
        'string',
        'As received (JSON)',
        'The analysis object exactly as received, as JSON text.',
        (c) => c.answer.raw,
        { required: true, neutralised: true },
      ),
    ],
  );

export const linkFile = (tz: string): ExportFile<LinkCtx> =>
  file(
    LINK_FILE,
    'link',
    'Participant to service account',
    'one participant',
    "The only file that links participant codes to the service's account ids. Written only because it was asked for; keep it apart from the data if the codes are pseudonyms.",
    ['participant'],
    [
      col<LinkCtx>('participant', 'string', 'Participant', "The participant's code.", (c) => c.participant, {
        required: true,
        neutralised: true,
      }),
      col<LinkCtx>(
        'account_id',
        'string',
        'Service account id',
        "The service's account_id of this participant (UUID); empty if none was created.",
        (c) => c.accountId,
      ),
      col<LinkCtx>(
        'account_created_at_utc',
        'datetime',
        'Account created at (UTC)',
        'When the workstation created the account.',
        (c) => c.createdUtc,
        { timeFormat: 'utc' },
      ),
      col<LinkCtx>(
        'account_created_at_local',
        'datetime',
        `Account created at (${tz})`,
        `When the workstation created the account, in ${tz}.`,
        (c) => c.created?.local,
        { timeFormat: 'local' },
      ),
    ],
    false,
  );

/** The files a request writes, in the order the codebook lists them. */
export interface ExportFiles {
  readonly recordings: ExportFile<RecordingCtx>;
  readonly long: (ExportFile<LongCtx> & { readonly columns: readonly LongColumn[] }) | null;
  readonly wide: ExportFile<WideCtx> | null;
  readonly summary: ExportFile<SummaryCtx> | null;
  readonly link: ExportFile<LinkCtx> | null;
  readonly dataQuality: ExportFile<FlagCtx>;
  readonly answers: ExportFile<AnswerCtx>;
  readonly visits: ExportFile<VisitRowCtx>;
  readonly completeness: ExportFile<CompletenessLine>;
}

export const exportFiles = (
  req: Pick<ExportRequest, 'analyses' | 'timeZone' | 'forms' | 'includeLinkFile'> &
    Partial<Pick<ExportRequest, 'baselineSessions'>> &
    LocalOption,
): ExportFiles => {
  const has = (f: ExportForm) => req.forms.includes(f);
  return {
    recordings: recordingsFile(req.timeZone, req.localMeasures),
    long: has('long') ? longFile(req) : null,
    wide: has('wide') ? wideFile(req) : null,
    summary: has('summary') ? summaryFile(req) : null,
    link: req.includeLinkFile ? linkFile(req.timeZone) : null,
    dataQuality: dataQualityFile(),
    answers: answersFile(),
    visits: visitsFile(),
    completeness: completenessFile(),
  };
};

const describeFile = <C>(f: ExportFile<C>): FileDef => ({
  ...f,
  primaryKey: [...f.primaryKey],
  foreignKeys: f.foreignKeys.map((k) => ({
    ...k,
    fields: [...k.fields],
    referenceFields: [...k.referenceFields],
  })),
  // Only the serialisable description: the reader and the long form's scope stay in main/.
  columns: f.columns.map((c) => ({
    name: c.name,
    title: c.title,
    type: c.type,
    description: c.description,
    required: c.required,
    neutralised: c.neutralised,
    ...(c.timeFormat ? { timeFormat: c.timeFormat } : {}),
    ...(c.unit !== undefined ? { unit: c.unit } : {}),
    ...(c.enum ? { enum: [...c.enum] } : {}),
    ...(c.range ? { range: [c.range[0], c.range[1]] as [number, number] } : {}),
    ...(c.measure ? { measure: c.measure } : {}),
  })),
});

/** The serialisable description of every table a request writes (for the codebook, datapackage.json, loaders and the UI), data files first. */
export const tableDefs = (files: ExportFiles): FileDef[] => [
  ...(files.long ? [describeFile(files.long)] : []),
  ...(files.wide ? [describeFile(files.wide)] : []),
  ...(files.summary ? [describeFile(files.summary)] : []),
  describeFile(files.visits),
  describeFile(files.completeness),
  describeFile(files.recordings),
  describeFile(files.dataQuality),
  describeFile(files.answers),
  ...(files.link ? [describeFile(files.link)] : []),
];
