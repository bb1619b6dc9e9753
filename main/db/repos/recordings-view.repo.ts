/**
 * Recordings as the workstation shows them: a page of a study's recordings (sorted and filtered in
 * SQL), a few rows by id (to refresh what the engine just changed), and everything about one
 * recording. Each row carries, for a file that needs the researcher, what happened and what to do.
 */
import { basename } from 'node:path';
import { ANALYSIS_TYPES, type AnalysisType, type ApiVersion } from '../../../shared/api/vocabulary';
import type { RecordingFilter, RecordingSort } from '../../../shared/contract/recordings.contract';
import {
  ANALYSIS_STATES_DONE,
  ANALYSIS_STATES_FAILED,
  UPLOAD_STATES_IN_PROGRESS,
  UPLOAD_STATES_NEEDING_ATTENTION,
} from '../../../shared/states';
import type { AnalysisState, RecordedAtSource, UploadState, VerdictView } from '../../../shared/study';
import { problemOf, retryable, type Problem } from '../../../shared/recording-problems';
import { sqlWords } from '../sql-words';
import { positional } from '../store/named-params';
import { likePattern, type Dialect } from '../store/dialect';
import type { Queryable } from '../store/types';
import { DISMISSED } from './needs-you-dismissals.repo';
import {
  batchAnalyses,
  recordingAnalysisStates,
  recordingUploadError,
  recordingVerdict,
} from './recording-columns';

/** The contract's lists of sorts and filters are the one source; the page query below maps each to SQL. */
export type { RecordingFilter, RecordingSort };

export interface RecordingQuery {
  readonly studyId: number;
  readonly participantId?: number | undefined;
  readonly batchId?: number | undefined;
  readonly filter?: RecordingFilter | undefined;
  readonly search?: string | undefined;
  /** A team study's site: only its participants' recordings. */
  readonly site?: string | undefined;
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

/**
 * Recordings with an analysis in the given states, through the partial index of unfinished analyses
 * (analyses_unfinished, migration 0050): in a study of any size only a few rows are unfinished, so the
 * set is built once per query instead of probing the analyses of every recording. The first term is
 * the index's own condition, which lets SQLite use it.
 */
const UNFINISHED = `state NOT IN ${sqlWords(ANALYSIS_STATES_DONE)}`;
const withAnalysis = (states: readonly AnalysisState[]) =>
  `(SELECT recording_id FROM analyses WHERE ${UNFINISHED} AND state IN ${sqlWords(states)})`;

const FILTER: Record<RecordingFilter, string> = {
  all: '1 = 1',
  // A needs-you item the researcher dismissed (curation, migration 0180) no longer needs them.
  needs_attention: `(r.upload_state IN ${sqlWords(UPLOAD_STATES_NEEDING_ATTENTION)} OR (r.upload_state = 'uploaded' AND r.id IN ${withAnalysis(ANALYSIS_STATES_FAILED)})) AND NOT ${DISMISSED}`,
  in_progress: `(r.upload_state IN ${sqlWords(UPLOAD_STATES_IN_PROGRESS)} OR (r.upload_state = 'uploaded' AND r.id IN ${withAnalysis(['processing'])}))`,
  completed: `(r.upload_state = 'uploaded' AND r.id NOT IN (SELECT recording_id FROM analyses WHERE ${UNFINISHED}))`,
  uncertain: `r.upload_state = 'upload_uncertain'`,
  refused: `r.upload_state IN ('refused_locally', 'rejected') AND NOT ${DISMISSED}`,
  duplicates: `r.upload_state = 'duplicate' AND NOT ${DISMISSED}`,
};

/** Sort keys on the recordings table itself (participant codes are sorted through a join, below). */
const ORDER: Record<Exclude<RecordingSort, 'participant'>, (d: Dialect) => string> = {
  recorded_at: (d) => d.binary('r.recorded_at'),
  file: (d) => d.binary('r.source_path'),
  state: (d) => d.binary('r.upload_state'),
  id: () => 'r.id',
};

export const recordingSelect = (d: Dialect): string => `
  SELECT r.id, r.participant_id, p.code, r.batch_id, r.source_path, r.session_label, r.recorded_at, r.recorded_at_source, r.upload_state,
         r.converted, r.verdict, r.api_version, r.result_source, r.upload_error, b.analyses AS batch_analyses,
         (SELECT ${d.jsonGroupArrayOfPairs('a.type', 'a.state')} FROM analyses a WHERE a.recording_id = r.id) AS analyses
  FROM recordings r JOIN participants p ON p.id = r.participant_id LEFT JOIN batches b ON b.id = r.batch_id`;

export interface Row {
  id: number;
  participant_id: number;
  code: string;
  batch_id: number | null;
  source_path: string;
  session_label: string | null;
  recorded_at: string;
  recorded_at_source: RecordedAtSource;
  upload_state: UploadState;
  converted: number;
  verdict: string | null;
  api_version: ApiVersion | null;
  result_source: 'service' | 'simulated' | null;
  upload_error: string | null;
  batch_analyses: string | null;
  analyses: string;
}

export const ANALYSIS_ORDER: readonly AnalysisType[] = ANALYSIS_TYPES;

export const toView = (r: Row): RecordingView => {
  const stored = recordingAnalysisStates.decode(r.analyses).map(([type, state]) => ({ type, state }));
  const requested = batchAnalyses.decodeOrNull(r.batch_analyses) ?? [];
  const analyses =
    stored.length > 0 || r.upload_state === 'uploaded'
      ? stored.sort((a, b) => ANALYSIS_ORDER.indexOf(a.type) - ANALYSIS_ORDER.indexOf(b.type))
      : requested.map((type) => ({ type, state: 'awaiting_upload' as const }));
  const verdict = recordingVerdict.decodeOrNull(r.verdict);
  const uploadError = recordingUploadError.decodeOrNull(r.upload_error);
  const facts = { uploadState: r.upload_state, analyses, verdict, uploadError };
  return {
    id: r.id,
    participantId: r.participant_id,
    participantCode: r.code,
    batchId: r.batch_id,
    fileName: basename(r.source_path),
    session: r.session_label,
    recordedAt: r.recorded_at,
    recordedAtSource: r.recorded_at_source,
    uploadState: r.upload_state,
    analyses,
    converted: r.converted === 1,
    verdictStatus: verdict?.status ?? null,
    apiVersion: r.api_version,
    simulated: r.result_source === 'simulated',
    problem: problemOf(facts),
    canRetry: retryable(facts),
  };
};

/**
 * Up to this many matching rows, a page is found by filtering first and sorting the matches; above
 * it, by walking the sort's index and filtering on the way, which stops after the page instead of
 * sorting a study. The count decides.
 */
const SORT_MATCHES_UP_TO = 5_000;

/** The sort's index, walked in order when many rows match. */
const SORT_INDEX: Record<Exclude<RecordingSort, 'participant'>, string> = {
  recorded_at: 'INDEXED BY recordings_by_study_time',
  file: 'INDEXED BY recordings_by_study_path',
  state: 'INDEXED BY recordings_by_state',
  id: 'NOT INDEXED', // the table itself, in id order
};

/**
 * One page of a study's recordings, fast at 100,000 (test/bench/recordings.bench.ts). The workspace
 * database is never ANALYZEd, and without statistics SQLite's planner picks poorly here (it sorted a
 * whole study to show one page of participants), so each query names its index:
 * - the count and a few matches: the narrowest index the query allows (one participant, one batch,
 *   the study's search index for a search, else the study's states);
 * - many matches: the sort's own index, walked until the page is complete.
 * Then only that page's rows are read in full (with their analyses). Participant codes are searched
 * in the participants table, so the count never joins it. The queries are exported for their
 * EXPLAIN QUERY PLAN test (test/integration/db/migration-0050.test.ts).
 */
export const recordingPageQueries = (q: RecordingQuery, d: Dialect) => {
  const where = [
    'r.study_id = @studyId',
    FILTER[q.filter ?? 'all'],
    q.participantId !== undefined ? 'r.participant_id = @participantId' : null,
    q.batchId !== undefined ? 'r.batch_id = @batchId' : null,
    q.site !== undefined
      ? 'r.participant_id IN (SELECT id FROM participants WHERE study_id = @studyId AND site_code = @site)'
      : null,
    q.search
      ? `(${d.like('r.source_path', '@search')} OR ${d.like('r.session_label', '@search')}
          OR r.participant_id IN (SELECT id FROM participants WHERE study_id = @studyId AND ${d.like('code', '@search')}))`
      : null,
  ]
    .filter((w) => w !== null)
    .join(' AND ');
  const params = {
    studyId: q.studyId,
    participantId: q.participantId ?? null,
    batchId: q.batchId ?? null,
    search: q.search ? likePattern(q.search) : null,
    site: q.site ?? null,
    limit: q.limit,
    offset: q.offset,
  };
  const narrow = d.planHint(
    q.participantId !== undefined
      ? 'INDEXED BY recordings_by_participant_id'
      : q.batchId !== undefined
        ? 'INDEXED BY recordings_by_batch'
        : q.search
          ? 'INDEXED BY recordings_by_study_path' // it holds what a search reads
          : 'INDEXED BY recordings_by_state',
  );
  const dir = q.dir === 'desc' ? 'DESC' : 'ASC';
  const window = `LIMIT @limit OFFSET @offset`;
  const ids = (total: number): string => {
    if (total <= SORT_MATCHES_UP_TO) {
      // A unary + keeps SQLite from walking the sort's index; CROSS JOIN keeps the recordings outermost
      // (both SQLite's planner hints, as INDEXED BY).
      return q.sort === 'participant'
        ? `SELECT r.id FROM recordings r ${narrow} ${d.planHint('CROSS')} JOIN participants p ON p.id = r.participant_id WHERE ${where}
           ORDER BY ${d.nocase(d.unindexed('p.code'))} ${dir}, p.id ${dir}, r.id ${dir} ${window}`
        : `SELECT r.id FROM recordings r ${narrow} WHERE ${where} ORDER BY ${d.order(d.unindexed(ORDER[q.sort](d)), dir)}, r.id ${dir} ${window}`;
    }
    if (q.sort === 'participant') {
      // Participants in code order (their index), each one's recordings in id order.
      return `SELECT r.id FROM participants p ${d.planHint('INDEXED BY participants_by_study_code')} CROSS JOIN recordings r ${d.planHint('INDEXED BY recordings_by_participant_id')}
              WHERE p.study_id = @studyId AND r.participant_id = p.id AND ${where}
              ORDER BY ${d.nocase('p.code')} ${dir}, p.id ${dir}, r.id ${dir} ${window}`;
    }
    return `SELECT r.id FROM recordings r ${d.planHint(SORT_INDEX[q.sort])} WHERE ${where}
            ORDER BY ${d.order(ORDER[q.sort](d), dir)}${q.sort === 'id' ? '' : `, r.id ${dir}`} ${window}`;
  };
  return { params, count: `SELECT count(*) AS n FROM recordings r ${narrow} WHERE ${where}`, ids };
};

export const recordingPage = async (
  db: Queryable,
  q: RecordingQuery,
): Promise<{ rows: RecordingView[]; total: number }> => {
  const sql = recordingPageQueries(q, db.dialect);
  const count = positional(sql.count, sql.params);
  const total = (await db.get<{ n: number }>(count.sql, count.params))!.n;
  if (total === 0 || q.offset >= total) return { rows: [], total };
  const page = positional(sql.ids(total), sql.params);
  const ids = (await db.all<{ id: number }>(page.sql, page.params)).map((r) => r.id);
  const byId = new Map((await recordingRows(db, ids)).map((r) => [r.id, r]));
  return { rows: ids.map((id) => byId.get(id)).filter((r) => r !== undefined), total };
};

export const recordingRows = async (q: Queryable, ids: readonly number[]): Promise<RecordingView[]> => {
  if (ids.length === 0) return [];
  const rows = await q.all<Row>(
    `${recordingSelect(q.dialect)} WHERE r.id IN (${q.dialect.jsonValues('?', 'integer')})`,
    [JSON.stringify(ids)],
  );
  return rows.map(toView);
};
