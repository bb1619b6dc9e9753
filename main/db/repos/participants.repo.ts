/**
 * Participants as the workstation lists them: one page at a time, sorted and filtered in SQL, with
 * each participant's recording counts, first and last recording and last usable recording (the facts
 * data recency is judged from, in main/design/recency.ts). Also the researcher's edits: create,
 * rename, notes, link an account.
 */
import { inStudyPeriod } from '../../../shared/recency';
import type { ParticipantStatus } from '../../../shared/states';
import { likePattern, type Dialect } from '../store/dialect';
import { positional } from '../store/named-params';
import { readableSelect } from '../readable-columns';
import type { Queryable } from '../store/types';
import { appendEvent } from './event-log.repo';
import { PARTICIPANT_ATTENTION } from './needs-you-dismissals.repo';

export type ParticipantSort = 'code' | 'recordings' | 'last_recording' | 'created';
export type ParticipantFilter = 'all' | 'overdue' | 'never' | 'no_account' | 'needs_attention';

export interface ParticipantQuery {
  readonly studyId: number;
  readonly search?: string | undefined;
  readonly filter?: ParticipantFilter | undefined;
  /** A team study's site: only its participants. */
  readonly site?: string | undefined;
  /** With the 'overdue' filter: the participants who missed a visit (main/design/recency.ts). */
  readonly overdueIds?: readonly number[] | undefined;
  readonly sort: ParticipantSort;
  readonly dir: 'asc' | 'desc';
  readonly offset: number;
  readonly limit: number;
}

export interface ParticipantRecord {
  readonly id: number;
  readonly studyId: number;
  readonly code: string;
  readonly accountId: string | null;
  readonly recordings: number;
  readonly completed: number;
  readonly needsAttention: number;
  readonly firstRecordingAt: string | null;
  readonly lastRecordingAt: string | null;
  readonly status: ParticipantStatus;
  /** The last usable recording (uploaded, with a completed analysis); null when there is none. */
  readonly lastUsableAt: string | null;
  readonly notes: string;
  readonly createdAt: string;
  /** The participant this one was merged into (migration 0180); null while it stands on its own. */
  readonly mergedInto: { readonly id: number; readonly code: string } | null;
  /** The participant's site (migration 0190; the study's default site outside a team study). */
  readonly site: string;
}

/**
 * Each participant's figures are kept on their row by migration 0040's triggers (recordings, fully
 * analysed, needing the researcher, first and last recording; cancelled files do not count), so a page
 * is an index range over participants, never an aggregate over the study's recordings.
 */
const columns = async (q: Queryable) => `p.id, p.study_id, p.code, p.site_code,
  ${await readableSelect(q, 'participants', ['account_id', 'notes'], 'p')}, p.created_at,
  p.rec_count AS n, p.rec_done AS done, ${PARTICIPANT_ATTENTION} AS attention, p.first_recording_at AS first, p.last_recording_at AS last,
  p.status, p.last_usable_at AS usable,
  p.merged_into, (SELECT i.code FROM participants i WHERE i.id = p.merged_into) AS merged_code`;

/** Sort keys; NULL last recordings ("never") sort first ascending and last descending. */
const ORDER: Record<ParticipantSort, (d: Dialect) => string> = {
  code: (d) => d.nocase('p.code'),
  recordings: () => 'p.rec_count',
  last_recording: (d) => d.binary('p.last_recording_at'),
  created: (d) => d.binary('p.created_at'),
};

const FILTER: Record<ParticipantFilter, (d: Dialect) => string> = {
  all: () => '1 = 1',
  // Who missed a visit of the schedule is decided outside SQL (main/design/recency.ts).
  overdue: (d) => `p.id IN (${d.jsonValues('@overdueIds', 'integer')})`,
  // A participant merged into another (migration 0180) has no recordings but is not "never recorded".
  never: () => `@inPeriod = 1 AND p.status = 'active' AND p.last_usable_at IS NULL AND p.merged_into IS NULL`,
  no_account: () => 'p.account_id IS NULL',
  needs_attention: () => `${PARTICIPANT_ATTENTION} > 0`,
};

interface Row {
  id: number;
  study_id: number;
  code: string;
  site_code: string;
  account_id: string | null;
  /** Null for a login that may not read notes (an analyst). */
  notes: string | null;
  created_at: string;
  n: number;
  done: number;
  attention: number;
  first: string | null;
  last: string | null;
  status: ParticipantStatus;
  usable: string | null;
  merged_into: number | null;
  merged_code: string | null;
}

const studyPeriodOf = async (
  q: Queryable,
  studyId: number,
): Promise<{ startDate: string | null; endDate: string | null }> => {
  const s = await q.get<{ s: string | null; e: string | null }>(
    `SELECT start_date AS s, end_date AS e FROM studies WHERE id = ?`,
    [studyId],
  );
  return { startDate: s?.s ?? null, endDate: s?.e ?? null };
};

const toRecord = (r: Row): ParticipantRecord => ({
  id: r.id,
  studyId: r.study_id,
  code: r.code,
  accountId: r.account_id,
  notes: r.notes ?? '',
  createdAt: r.created_at,
  recordings: r.n,
  completed: r.done,
  needsAttention: r.attention,
  firstRecordingAt: r.first,
  lastRecordingAt: r.last,
  status: r.status,
  lastUsableAt: r.usable,
  mergedInto: r.merged_into !== null ? { id: r.merged_into, code: r.merged_code ?? '' } : null,
  site: r.site_code,
});

export const participantPage = async (
  q: Queryable,
  query: ParticipantQuery,
  nowMs: number,
): Promise<{ rows: ParticipantRecord[]; total: number }> => {
  const study = await studyPeriodOf(q, query.studyId);
  const search = query.search?.trim();
  const d = q.dialect;
  const where = `p.study_id = @studyId AND ${FILTER[query.filter ?? 'all'](d)}${search ? ` AND ${d.like('p.code', '@search')}` : ''}${query.site !== undefined ? ' AND p.site_code = @site' : ''}`;
  const params = {
    studyId: query.studyId,
    overdueIds: JSON.stringify(query.overdueIds ?? []),
    inPeriod: inStudyPeriod(study, new Date(nowMs).toISOString().slice(0, 10)) ? 1 : 0,
    search: search ? likePattern(search) : null,
    site: query.site ?? null,
    limit: query.limit,
    offset: query.offset,
  };
  const dir = query.dir === 'desc' ? 'DESC' : 'ASC';
  // The total is its own count (an index scan) rather than a window over the page query, which would
  // make SQLite materialise and sort every matching row before it can stop at the page.
  const count = positional(`SELECT count(*) AS n FROM participants p WHERE ${where}`, params);
  const total = (await q.get<{ n: number }>(count.sql, count.params))!.n;
  if (total <= query.offset) return { rows: [], total };
  const page = positional(
    `SELECT ${await columns(q)} FROM participants p WHERE ${where}
     ORDER BY ${d.order(ORDER[query.sort](d), dir)}, ${d.nocase('p.code')} ${dir}, p.id ${dir}
     LIMIT @limit OFFSET @offset`,
    params,
  );
  const rows = await q.all<Row>(page.sql, page.params);
  return { rows: rows.map(toRecord), total };
};

export const participantById = async (
  q: Queryable,
  participantId: number,
): Promise<ParticipantRecord | null> => {
  const r = await q.get<Row>(`SELECT ${await columns(q)} FROM participants p WHERE p.id = ?`, [
    participantId,
  ]);
  return r ? toRecord(r) : null;
};

export type EditRefusal = 'not_found' | 'code_taken' | 'account_taken' | 'has_account';

/** Adds a participant without an account; run it in a transaction (the check and the insert are one act). */
export const createParticipant = async (
  tx: Queryable,
  studyId: number,
  code: string,
  at: string,
): Promise<{ id: number } | EditRefusal> => {
  if (!(await tx.get(`SELECT 1 FROM studies WHERE id = ?`, [studyId]))) return 'not_found';
  if (await tx.get(`SELECT 1 FROM participants WHERE study_id = ? AND code = ?`, [studyId, code]))
    return 'code_taken';
  const { id } = (await tx.get<{ id: number }>(
    `INSERT INTO participants (study_id, code, created_at) VALUES (?, ?, ?) RETURNING id`,
    [studyId, code, at],
  ))!;
  return { id };
};

/** Gives a participant a new code; run it in a transaction (the check and the update are one act). */
export const renameParticipant = async (
  tx: Queryable,
  participantId: number,
  code: string,
): Promise<true | EditRefusal> => {
  const p = await tx.get<{ study_id: number; code: string }>(
    `SELECT study_id, code FROM participants WHERE id = ?`,
    [participantId],
  );
  if (!p) return 'not_found';
  if (p.code === code) return true;
  if (
    await tx.get(`SELECT 1 FROM participants WHERE study_id = ? AND code = ? AND id <> ?`, [
      p.study_id,
      code,
      participantId,
    ])
  )
    return 'code_taken';
  await tx.run(`UPDATE participants SET code = ? WHERE id = ?`, [code, participantId]);
  return true;
};

export const setParticipantNotes = async (
  q: Queryable,
  participantId: number,
  notes: string,
): Promise<true | EditRefusal> =>
  (await q.run(`UPDATE participants SET notes = ? WHERE id = ?`, [notes, participantId])).changes === 1
    ? true
    : 'not_found';

/**
 * Links a service account that already exists (created in another tool or an earlier workstation) to
 * a participant without one; its files waiting for an account are queued. Refused when the participant
 * already has an account (its results would be split across two) or the account belongs to another
 * participant of the study. Run it in a transaction: the checks, the link, the queued files and the
 * event are one act.
 */
export const linkAccount = async (
  tx: Queryable,
  participantId: number,
  accountId: string,
  at: string,
): Promise<true | EditRefusal> => {
  const p = await tx.get<{ study_id: number; account_id: string | null }>(
    `SELECT study_id, account_id FROM participants WHERE id = ?`,
    [participantId],
  );
  if (!p) return 'not_found';
  if (p.account_id !== null)
    return p.account_id.toLowerCase() === accountId.toLowerCase() ? true : 'has_account';
  if (
    await tx.get(`SELECT 1 FROM participants WHERE study_id = ? AND lower(account_id) = lower(?)`, [
      p.study_id,
      accountId,
    ])
  )
    return 'account_taken';
  // Linking decides an uncertain account request too (account-intents.repo.ts).
  await tx.run(
    `UPDATE participants SET account_id = ?, account_created_at = ?, account_uncertain = NULL WHERE id = ?`,
    [accountId.toLowerCase(), at, participantId],
  );
  await tx.run(
    `UPDATE recordings SET upload_state = 'queued' WHERE participant_id = ? AND upload_state = 'pending'`,
    [participantId],
  );
  await appendEvent(
    tx,
    at,
    'account_linked',
    { studyId: p.study_id },
    { participant_id: participantId, account_id: accountId.toLowerCase() },
  );
  return true;
};

/** The study's participants without a service account, by code. */
export const participantsWithoutAccountRows = (
  q: Queryable,
  studyId: number,
): Promise<{ id: number; code: string }[]> =>
  q.all(`SELECT id, code FROM participants WHERE study_id = ? AND account_id IS NULL ORDER BY code`, [
    studyId,
  ]);

export interface ParticipantAccountRow {
  readonly id: number;
  readonly code: string;
  readonly account_id: string | null;
}

/** Every participant of the study with its service account (null while it has none). */
/** Each participant's service account id; null for every one where the login may not read the link (team members but the owner). */
export const participantAccounts = async (q: Queryable, studyId: number): Promise<ParticipantAccountRow[]> =>
  q.all(
    `SELECT ${await readableSelect(q, 'participants', ['id', 'code', 'account_id'])} FROM participants WHERE study_id = ?`,
    [studyId],
  );

/** The study's participant codes. */
export const participantCodesOfStudy = async (q: Queryable, studyId: number): Promise<string[]> =>
  (await q.all<{ code: string }>(`SELECT code FROM participants WHERE study_id = ?`, [studyId])).map(
    (r) => r.code,
  );

export const participantCountOfStudy = async (q: Queryable, studyId: number): Promise<number> =>
  (await q.get<{ n: number }>(`SELECT count(*) AS n FROM participants WHERE study_id = ?`, [studyId]))!.n;

/** A cheap fingerprint of the whole participants table (count, last id, total code length): it changes when codes do. */
export const participantCodesVersion = async (q: Queryable): Promise<string> => {
  const v = (await q.get<{ n: number; m: number; l: number }>(
    `SELECT count(*) AS n, coalesce(max(id), 0) AS m, coalesce(sum(length(code)), 0) AS l FROM participants`,
  ))!;
  return `${v.n}:${v.m}:${v.l}`;
};

/** Every participant code in the workspace. */
export const allParticipantCodes = async (q: Queryable): Promise<string[]> =>
  (await q.all<{ code: string }>(`SELECT code FROM participants`)).map((r) => r.code);
