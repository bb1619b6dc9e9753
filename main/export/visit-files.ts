/**
 * The visit columns of the per-recording files and the two missing-data files:
 * `visits.csv`, one row per expected visit of every participant with either the recording its values
 * come from or a missing-data reason, and `completeness.csv`, the study's visits x reasons counts. The
 * codes come from shared/missing-data.ts; the column schema (schema.ts) lists these files with the rest.
 */
import type { FileDef, FileRole } from '../../shared/export';
import { MISSING_REASONS } from '../../shared/missing-data';
import {
  PARTICIPANT_STATUSES,
  VISIT_SOURCES,
  type ParticipantStatus,
  type VisitSource,
} from '../../shared/states';
import type { CompletenessLine, VisitRow } from '../../shared/visit-accounting';
import type { BaselineSource } from '../../shared/visits';
import { col, type ExportColumn } from './column';

export const VISITS_FILE = 'visits.csv';
export const COMPLETENESS_FILE = 'completeness.csv';

/** A recording's visit as the per-recording files write it. */
export interface VisitCells {
  readonly name: string | null;
  readonly index: number | null;
  readonly daysSinceBaseline: number | null;
  readonly source: VisitSource;
  /** Dated after the participant's withdrawal (shared/withdrawal.ts). */
  readonly afterWithdrawal: boolean;
}

export const NO_VISIT: VisitCells = {
  name: null,
  index: null,
  daysSinceBaseline: null,
  source: 'none',
  afterWithdrawal: false,
};

export interface VisitRowCtx {
  readonly row: VisitRow;
  readonly status: ParticipantStatus;
  readonly baseline: string | null;
  readonly baselineSource: BaselineSource | null;
  /** The name (never the folder) of the file `recording` names; null when the visit has no recording. */
  readonly fileName: string | null;
}

const CODES = MISSING_REASONS.map((m) => m.code);
const codeOf = (reason: string | null): string | null =>
  reason === null ? null : (MISSING_REASONS.find((m) => m.reason === reason)?.code ?? null);

/** The visit columns, after `session` in recordings.csv and the measure files. */
export const visitColumns = <C extends { readonly visit: VisitCells }>(): ExportColumn<C>[] => [
  col<C>(
    'visit',
    'string',
    'Visit',
    "The visit of the study's schedule this recording is assigned to: the researcher's choice, else the visit its session label names, else the visit whose window holds its date (calendar days from the participant's baseline in the study's time zone). Empty when none.",
    (c) => c.visit.name,
    { neutralised: true },
  ),
  col<C>(
    'visit_index',
    'integer',
    'Visit index',
    "The visit's place in the schedule (1 = the first visit by target day). Empty when the recording has no visit.",
    (c) => c.visit.index,
  ),
  col<C>(
    'days_since_baseline',
    'integer',
    'Days since baseline',
    "Calendar days from the participant's baseline (day 0: the date the researcher set, else their first usable recording's date, else their first recording's) to this recording, in the study's time zone. Empty when the participant has no baseline.",
    (c) => c.visit.daysSinceBaseline,
    { unit: 'days' },
  ),
  col<C>(
    'visit_source',
    'string',
    'Where the visit came from',
    'researcher: set by hand; session: the session label names the visit; window: the date falls in the visit’s window; none: no visit.',
    (c) => c.visit.source,
    { enum: [...VISIT_SOURCES], required: true },
  ),
  col<C>(
    'after_withdrawal',
    'boolean',
    'Recorded after withdrawal',
    "true: the recording is dated after the day the participant withdrew from the study (their status 'withdrawn' and its date, calendar days in the study's time zone); it is not an ordinary visit and should be left out of analyses unless the protocol allows data after withdrawal. false otherwise.",
    (c) => c.visit.afterWithdrawal,
    { required: true },
  ),
];

type ExportFileOf<C> = Omit<FileDef, 'columns'> & { readonly columns: readonly ExportColumn<C>[] };

const fileOf = <C>(
  name: string,
  role: FileRole,
  title: string,
  rowIs: string,
  description: string,
  primaryKey: string[],
  columns: ExportColumn<C>[],
): ExportFileOf<C> => ({ name, role, title, rowIs, description, primaryKey, foreignKeys: [], columns });

const MISSING_CODES_TEXT = MISSING_REASONS.map((m) => `${m.code} ${m.label.toLowerCase()}`).join(', ');

export const visitsFile = (): ExportFileOf<VisitRowCtx> =>
  fileOf(
    VISITS_FILE,
    'data',
    'Expected visits',
    'one expected visit of one participant',
    "Every visit of the study's schedule for every participant of the export, whatever their status: either `recording` names the usable recording its values come from (join recordings.csv and the measure files on `recording`) and `missing_reason` is empty, or `missing_reason` says why there are no values (REDCap-style missing-data codes, listed in the section Missing-data codes) and `missing_detail` gives the particular (the local refusal's finding codes, the service's error type, the withdrawal's reason, when the window closes). The recording a reason is about may be outside the export's date or session selection.",
    ['participant', 'visit'],
    [
      col<VisitRowCtx>(
        'participant',
        'string',
        'Participant',
        "The participant's code.",
        (c) => c.row.participant,
        {
          required: true,
          neutralised: true,
        },
      ),
      col<VisitRowCtx>(
        'visit',
        'string',
        'Visit',
        "The visit's name in the schedule.",
        (c) => c.row.visit.name,
        {
          required: true,
          neutralised: true,
        },
      ),
      col<VisitRowCtx>(
        'visit_index',
        'integer',
        'Visit index',
        "The visit's place in the schedule (1 = first).",
        (c) => c.row.visit.position,
        { required: true },
      ),
      col<VisitRowCtx>(
        'target_day',
        'integer',
        'Target day',
        "The visit's target, in days from the participant's baseline.",
        (c) => c.row.visit.targetDay,
        { unit: 'days', required: true },
      ),
      col<VisitRowCtx>(
        'participant_status',
        'string',
        'Participant status',
        "The participant's status when the export was written.",
        (c) => c.status,
        { enum: [...PARTICIPANT_STATUSES], required: true },
      ),
      col<VisitRowCtx>(
        'baseline_date',
        'string',
        'Baseline date',
        "The participant's day 0 (YYYY-MM-DD, study time zone); empty when they have none yet.",
        (c) => c.baseline,
      ),
      col<VisitRowCtx>(
        'baseline_source',
        'string',
        'Source of the baseline',
        'researcher: set by hand; first_usable: the first usable recording; first_recording: the first recording of any kind (none usable yet).',
        (c) => c.baselineSource,
        { enum: ['researcher', 'first_usable', 'first_recording'] },
      ),
      col<VisitRowCtx>(
        'window_from',
        'string',
        'Window opens',
        "First day of the visit's window for this participant (YYYY-MM-DD); empty without a baseline.",
        (c) => c.row.windowFrom,
      ),
      col<VisitRowCtx>(
        'window_to',
        'string',
        'Window closes',
        "Last day of the visit's window for this participant (YYYY-MM-DD); empty without a baseline.",
        (c) => c.row.windowTo,
      ),
      col<VisitRowCtx>(
        'recording',
        'integer',
        'Recording',
        'The usable recording the values come from (the first by date when several), or, when `missing_reason` is set, the recording the reason is about; empty when the visit has no recording.',
        (c) => c.row.recording,
      ),
      col<VisitRowCtx>(
        'file_name',
        'string',
        'File name',
        'Name of the original audio file of `recording` (the name only, never its folder), so that a refused, held or excluded file can be found even when recordings.csv does not list it; empty when the visit has no recording.',
        (c) => c.fileName,
        { neutralised: true, readsFrom: 'recordings.source_path' },
      ),
      col<VisitRowCtx>(
        'recordings_in_visit',
        'integer',
        'Recordings in the visit',
        'How many recordings (cancelled ones left out) are assigned to this visit.',
        (c) => c.row.recordingsInVisit,
        { required: true },
      ),
      col<VisitRowCtx>(
        'missing_reason',
        'string',
        'Missing-data reason',
        `Empty when the visit has values; otherwise the code of why not: ${MISSING_CODES_TEXT}.`,
        (c) => codeOf(c.row.reason),
        { enum: CODES },
      ),
      col<VisitRowCtx>(
        'missing_detail',
        'string',
        'Missing-data detail',
        "The particular of the reason: the local checks' finding codes, the service's error type, the exclusion's or withdrawal's reason, when the window closes.",
        (c) => c.row.detail,
        { neutralised: true },
      ),
    ],
  );

export const completenessFile = (): ExportFileOf<CompletenessLine> =>
  fileOf(
    COMPLETENESS_FILE,
    'data',
    'Completeness by visit',
    'one visit of the schedule',
    'For each visit: how many participants were expected, how many have values, and how many are missing for each reason (the counts of `missing_reason` in visits.csv; expected = present + every reason).',
    ['visit'],
    [
      col<CompletenessLine>('visit', 'string', 'Visit', "The visit's name.", (c) => c.visit.name, {
        required: true,
        neutralised: true,
      }),
      col<CompletenessLine>(
        'visit_index',
        'integer',
        'Visit index',
        "The visit's place.",
        (c) => c.visit.position,
        {
          required: true,
        },
      ),
      col<CompletenessLine>(
        'expected',
        'integer',
        'Expected',
        'Participants expected at this visit (every participant of the export).',
        (c) => c.expected,
        { required: true },
      ),
      col<CompletenessLine>(
        'present',
        'integer',
        'Present',
        'Visits with a usable recording.',
        (c) => c.present,
        { required: true },
      ),
      ...MISSING_REASONS.map((m) =>
        col<CompletenessLine>(
          `missing_${m.code.toLowerCase()}`,
          'integer',
          `Missing: ${m.label}`,
          `Visits missing with code ${m.code}: ${m.meaning}`,
          (c) => c.missing[m.reason],
          { required: true },
        ),
      ),
    ],
  );
