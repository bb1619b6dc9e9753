/**
 * What visit assignment and missing-data accounting read about a study's recordings: their session,
 * time, upload state, local verdict, stored error, analyses' states and the researcher's visit
 * override. One pass over the study's recordings, in participant order.
 */
import type { StoredUploadError } from '../../../shared/recording-problems';
import type { AnalysisState, UploadState } from '../../../shared/states';
import { readableSelect } from '../readable-columns';
import type { Queryable } from '../store/types';
import { recordingUploadError, recordingVerdict } from './recording-columns';

export interface RecordingVisitFacts {
  readonly id: number;
  readonly participantId: number;
  /** Where the original file was imported from (the export writes its name only); null when the login may not read it. */
  readonly sourcePath: string | null;
  readonly session: string | null;
  readonly recordedAt: string;
  readonly uploadState: UploadState;
  readonly verdictStatus: string | null;
  readonly refusals: readonly string[];
  readonly errorType: string | null;
  readonly analyses: readonly AnalysisState[];
  /** The researcher's visit (null: "no visit"); undefined without an override. */
  readonly override: number | null | undefined;
  /** The researcher's reason for excluding the recording from analysis (curation); null when not excluded. */
  readonly excludedReason: string | null;
}

interface Row {
  id: number;
  participant_id: number;
  source_path: string | null;
  session_label: string | null;
  recorded_at: string;
  upload_state: UploadState;
  verdict: string | null;
  upload_error: string | null;
  analyses: string | null;
  has_override: number;
  override_visit: number | null;
  excluded_at: string | null;
  excluded_reason: string | null;
}

/** The service's error type when it named one (docs/export.md: "the service's error type"), else our kind, else the local reason. */
const errorTypeOf = (e: StoredUploadError | null): string | null => {
  if (e === null) return null;
  if ('kind' in e) return e.serviceType ?? e.kind;
  return e.error?.serviceType ?? e.error?.kind ?? e.reason ?? null;
};

const toFacts = (r: Row): RecordingVisitFacts => {
  const verdict = recordingVerdict.decodeOrNull(r.verdict);
  return {
    id: r.id,
    participantId: r.participant_id,
    sourcePath: r.source_path,
    session: r.session_label,
    recordedAt: r.recorded_at,
    uploadState: r.upload_state,
    verdictStatus: verdict?.status ?? null,
    refusals: (verdict?.findings ?? []).filter((f) => f.severity === 'refuse' && f.code).map((f) => f.code),
    errorType: errorTypeOf(recordingUploadError.decodeOrNull(r.upload_error)),
    analyses: r.analyses ? (r.analyses.split(',') as AnalysisState[]) : [],
    override: r.has_override ? r.override_visit : undefined,
    excludedReason: r.excluded_at === null ? null : (r.excluded_reason ?? 'excluded'),
  };
};

/** The facts' SELECT; the source path as NULL when the login may not read it (a team study's analyst). */
const selectFacts = async (
  q: Queryable,
): Promise<string> => `SELECT r.id, r.participant_id, ${await readableSelect(q, 'recordings', ['source_path'], 'r')}, r.session_label, r.recorded_at, r.upload_state, r.verdict, r.upload_error,
    r.excluded_at, r.excluded_reason,
    (SELECT ${q.dialect.groupConcat('a.state')} FROM analyses a WHERE a.recording_id = r.id) AS analyses,
    ${q.dialect.flag('rv.recording_id IS NOT NULL')} AS has_override, rv.visit_id AS override_visit
  FROM recordings r LEFT JOIN recording_visits rv ON rv.recording_id = r.id`;

export const recordingVisitFactsOfStudy = async (
  q: Queryable,
  studyId: number,
): Promise<RecordingVisitFacts[]> =>
  (
    await q.all<Row>(
      `${await selectFacts(q)} WHERE r.study_id = ? ORDER BY r.participant_id, ${q.dialect.binary('r.recorded_at')}, r.id`,
      [studyId],
    )
  ).map(toFacts);

export const recordingVisitFactsOfParticipant = async (
  q: Queryable,
  participantId: number,
): Promise<RecordingVisitFacts[]> =>
  (
    await q.all<Row>(
      `${await selectFacts(q)} WHERE r.participant_id = ? ORDER BY ${q.dialect.binary('r.recorded_at')}, r.id`,
      [participantId],
    )
  ).map(toFacts);
