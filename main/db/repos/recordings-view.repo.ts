/**
 * Recordings as the workstation shows them: a page of a study's recordings (sorted and filtered in
 * SQL), a few rows by id (to refresh what the engine just changed), and everything about one
 * recording. Each row carries, for a file that needs the researcher, what happened and what to do.
 */
import { basename } from 'node:path';
import type { AnalysisType, ApiVersion } from '../../../shared/api/vocabulary';
import type { AnalysisState, RecordedAtSource, UploadState, VerdictView } from '../../../shared/study';
import { problemOf, retryable, type Problem, type StoredUploadError } from '../../../shared/recording-problems';
import type { Db } from '../open';
import { stmt } from '../statements';

export type RecordingSort = 'recorded_at' | 'participant' | 'file' | 'state' | 'id';
export type RecordingFilter = 'all' | 'needs_attention' | 'in_progress' | 'completed' | 'uncertain' | 'refused' | 'duplicates';

export interface RecordingQuery {
  readonly studyId: number;
  readonly participantId?: number | undefined;
  readonly batchId?: number | undefined;
  readonly filter?: RecordingFilter | undefined;
  readonly search?: string | undefined;
  readonly sort: RecordingSort;
  readonly dir: 'asc' | 'desc';
  readonly offset: number;
  readonly limit: number;
}

export interface RecordingView {
  readonly id: number;
  readonly participantId: number;
  readonly participantCode: string;
  readonly batchId: number | null;
  readonly fileName: string;
  readonly session: string | null;
  readonly recordedAt: string;
  readonly recordedAtSource: RecordedAtSource;
  readonly uploadState: UploadState;
  readonly analyses: { type: AnalysisType; state: AnalysisState }[];
  readonly converted: boolean;
  readonly verdictStatus: VerdictView['status'] | null;
  readonly apiVersion: ApiVersion | null;
  readonly simulated: boolean;
  readonly problem: Problem | null;
  readonly canRetry: boolean;
}

const PENDING_ANALYSIS = `EXISTS (SELECT 1 FROM analyses a WHERE a.recording_id = r.id AND a.state NOT IN ('completed', 'not_requested'))`;
const FAILED_ANALYSIS = `EXISTS (SELECT 1 FROM analyses a WHERE a.recording_id = r.id AND a.state IN ('error', 'timed_out'))`;

const FILTER: Record<RecordingFilter, string> = {
  all: '1',
  needs_attention: `(r.upload_state IN ('refused_locally', 'rejected', 'upload_uncertain', 'duplicate') OR (r.upload_state = 'uploaded' AND ${FAILED_ANALYSIS}))`,
  in_progress: `(r.upload_state IN ('pending', 'queued', 'uploading') OR (r.upload_state = 'uploaded' AND EXISTS (SELECT 1 FROM analyses a WHERE a.recording_id = r.id AND a.state = 'processing')))`,
  completed: `(r.upload_state = 'uploaded' AND NOT ${PENDING_ANALYSIS})`,
  uncertain: `r.upload_state = 'upload_uncertain'`,
  refused: `r.upload_state IN ('refused_locally', 'rejected')`,
  duplicates: `r.upload_state = 'duplicate'`,
};

const ORDER: Record<RecordingSort, string> = {
  recorded_at: 'r.recorded_at',
  participant: 'p.code COLLATE NOCASE',
  file: 'r.source_path',
  state: 'r.upload_state',
  id: 'r.id',
};

export const SELECT = `
  SELECT r.id, r.participant_id, p.code, r.batch_id, r.source_path, r.session_label, r.recorded_at, r.recorded_at_source, r.upload_state,
         r.converted, r.verdict, r.api_version, r.result_source, r.upload_error, b.analyses AS batch_analyses,
         (SELECT json_group_array(json_array(a.type, a.state)) FROM analyses a WHERE a.recording_id = r.id) AS analyses
  FROM recordings r JOIN participants p ON p.id = r.participant_id LEFT JOIN batches b ON b.id = r.batch_id`;

export interface Row {
  id: number; participant_id: number; code: string; batch_id: number | null; source_path: string; session_label: string | null;
  recorded_at: string; recorded_at_source: RecordedAtSource; upload_state: UploadState; converted: number; verdict: string | null;
  api_version: ApiVersion | null; result_source: 'service' | 'simulated' | null; upload_error: string | null; batch_analyses: string | null;
  analyses: string;
}

export const ANALYSIS_ORDER: readonly AnalysisType[] = ['wellbeing', 'parkinsons', 'alzheimers', 'communication_coach'];

export const toView = (r: Row): RecordingView => {
  const stored = (JSON.parse(r.analyses) as [AnalysisType, AnalysisState][]).map(([type, state]) => ({ type, state }));
  const requested = r.batch_analyses ? (JSON.parse(r.batch_analyses) as AnalysisType[]) : [];
  const analyses = stored.length > 0 || r.upload_state === 'uploaded'
    ? stored.sort((a, b) => ANALYSIS_ORDER.indexOf(a.type) - ANALYSIS_ORDER.indexOf(b.type))
    : requested.map((type) => ({ type, state: 'awaiting_upload' as const }));
  const verdict = r.verdict ? (JSON.parse(r.verdict) as VerdictView) : null;
  const uploadError = r.upload_error ? (JSON.parse(r.upload_error) as StoredUploadError) : null;
  const facts = { uploadState: r.upload_state, analyses, verdict, uploadError };
  return {
    id: r.id, participantId: r.participant_id, participantCode: r.code, batchId: r.batch_id, fileName: basename(r.source_path),
    session: r.session_label, recordedAt: r.recorded_at, recordedAtSource: r.recorded_at_source, uploadState: r.upload_state,
    analyses, converted: r.converted === 1, verdictStatus: verdict?.status ?? null, apiVersion: r.api_version,
    simulated: r.result_source === 'simulated', problem: problemOf(facts), canRetry: retryable(facts),
  };
};

const likePattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export const recordingPage = (db: Db, q: RecordingQuery): { rows: RecordingView[]; total: number } => {
  const where = [
    'r.study_id = @studyId',
    FILTER[q.filter ?? 'all'],
    q.participantId !== undefined ? 'r.participant_id = @participantId' : null,
    q.batchId !== undefined ? 'r.batch_id = @batchId' : null,
    q.search ? `(p.code LIKE @search ESCAPE '\\' OR r.source_path LIKE @search ESCAPE '\\' OR r.session_label LIKE @search ESCAPE '\\')` : null,
  ].filter((w) => w !== null).join(' AND ');
  const params = {
    studyId: q.studyId, participantId: q.participantId ?? null, batchId: q.batchId ?? null,
    search: q.search ? likePattern(q.search) : null, limit: q.limit, offset: q.offset,
  };
  const dir = q.dir === 'desc' ? 'DESC' : 'ASC';
  const total = (stmt(db, `SELECT count(*) AS n FROM recordings r JOIN participants p ON p.id = r.participant_id WHERE ${where}`).get(params) as { n: number }).n;
  const rows = stmt(db, `${SELECT} WHERE ${where} ORDER BY ${ORDER[q.sort]} ${dir}, r.id ${dir} LIMIT @limit OFFSET @offset`).all(params) as Row[];
  return { rows: rows.map(toView), total };
};

export const recordingRows = (db: Db, ids: readonly number[]): RecordingView[] => {
  if (ids.length === 0) return [];
  const rows = stmt(db, `${SELECT} WHERE r.id IN (SELECT value FROM json_each(?))`).all(JSON.stringify(ids)) as Row[];
  return rows.map(toView);
};

