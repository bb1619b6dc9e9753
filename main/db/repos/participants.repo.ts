/**
 * Participants as the workstation lists them: one page at a time, sorted and filtered in SQL, with
 * each participant's recording counts, first and last recording and data recency against the
 * study's session interval. Also the researcher's edits: create, rename, notes, link an account.
 */
import { overdueBefore, recencyOf } from '../../../shared/recency';
import type { Db } from '../open';
import { stmt } from '../statements';
import { appendEvent } from './event-log.repo';

export type ParticipantSort = 'code' | 'recordings' | 'last_recording' | 'created';
export type ParticipantFilter = 'all' | 'overdue' | 'never' | 'no_account' | 'needs_attention';

export interface ParticipantQuery {
  readonly studyId: number;
  readonly search?: string | undefined;
  readonly filter?: ParticipantFilter | undefined;
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
  readonly recency: ReturnType<typeof recencyOf>;
  readonly notes: string;
  readonly createdAt: string;
}

/** Upload states that wait for the researcher. */
export const ATTENTION_STATES = `('refused_locally', 'rejected', 'upload_uncertain', 'duplicate')`;

/**
 * Per-participant aggregates over the study's recordings (cancelled files do not count). A recording is
 * complete when it was uploaded and every requested analysis completed.
 */
const stats = (scope: 'r.study_id = @studyId' | 'r.participant_id = @id') => `
  SELECT r.participant_id AS pid, count(*) AS n,
         sum(r.upload_state IN ${ATTENTION_STATES}) AS attention,
         sum(r.upload_state = 'uploaded' AND NOT EXISTS (
               SELECT 1 FROM analyses a WHERE a.recording_id = r.id AND a.state NOT IN ('completed', 'not_requested'))) AS done,
         min(r.recorded_at) AS first, max(r.recorded_at) AS last
  FROM recordings r WHERE ${scope} AND r.upload_state <> 'cancelled'
  GROUP BY r.participant_id`;
const STUDY_STATS = stats('r.study_id = @studyId');

const ORDER: Record<ParticipantSort, string> = {
  code: 'p.code COLLATE NOCASE',
  recordings: 'coalesce(s.n, 0)',
  last_recording: `coalesce(s.last, '')`,
  created: 'p.created_at',
};

const FILTER: Record<ParticipantFilter, string> = {
  all: '1',
  overdue: 's.last IS NOT NULL AND s.last < @overdueBefore',
  never: 's.last IS NULL',
  no_account: 'p.account_id IS NULL',
  needs_attention: 'coalesce(s.attention, 0) > 0',
};

interface Row {
  id: number; study_id: number; code: string; account_id: string | null; notes: string; created_at: string;
  n: number | null; done: number | null; attention: number | null; first: string | null; last: string | null;
}

const likePattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const intervalOf = (db: Db, studyId: number): number =>
  (stmt(db, `SELECT session_interval_days AS d FROM studies WHERE id = ?`).get(studyId) as { d: number } | undefined)?.d ?? 7;

const toRecord = (r: Row, intervalDays: number, nowMs: number): ParticipantRecord => ({
  id: r.id, studyId: r.study_id, code: r.code, accountId: r.account_id, notes: r.notes, createdAt: r.created_at,
  recordings: r.n ?? 0, completed: r.done ?? 0, needsAttention: r.attention ?? 0,
  firstRecordingAt: r.first, lastRecordingAt: r.last, recency: recencyOf(r.last, intervalDays, nowMs),
});

export const participantPage = (db: Db, q: ParticipantQuery, nowMs: number): { rows: ParticipantRecord[]; total: number } => {
  const interval = intervalOf(db, q.studyId);
  const where = `p.study_id = @studyId AND ${FILTER[q.filter ?? 'all']}${q.search ? ` AND p.code LIKE @search ESCAPE '\\'` : ''}`;
  const params = {
    studyId: q.studyId, overdueBefore: overdueBefore(interval, nowMs), search: q.search ? likePattern(q.search) : null,
    limit: q.limit, offset: q.offset,
  };
  const dir = q.dir === 'desc' ? 'DESC' : 'ASC';
  const rows = stmt(db,
    `WITH s AS (${STUDY_STATS})
     SELECT p.id, p.study_id, p.code, p.account_id, p.notes, p.created_at, s.n, s.done, s.attention, s.first, s.last, count(*) OVER () AS total
     FROM participants p LEFT JOIN s ON s.pid = p.id
     WHERE ${where}
     ORDER BY ${ORDER[q.sort]} ${dir}, p.code COLLATE NOCASE ${dir}, p.id
     LIMIT @limit OFFSET @offset`,
  ).all(params) as (Row & { total: number })[];
  const total = rows[0]?.total ?? (q.offset > 0
    ? (stmt(db, `WITH s AS (${STUDY_STATS}) SELECT count(*) AS n FROM participants p LEFT JOIN s ON s.pid = p.id WHERE ${where}`).get(params) as { n: number }).n
    : 0);
  return { rows: rows.map((r) => toRecord(r, interval, nowMs)), total };
};

export const participantById = (db: Db, participantId: number, nowMs: number): ParticipantRecord | null => {
  const p = stmt(db, `SELECT study_id FROM participants WHERE id = ?`).get(participantId) as { study_id: number } | undefined;
  if (!p) return null;
  const r = stmt(db,
    `SELECT p.id, p.study_id, p.code, p.account_id, p.notes, p.created_at, s.n, s.done, s.attention, s.first, s.last
     FROM participants p LEFT JOIN (${stats('r.participant_id = @id')}) s ON s.pid = p.id WHERE p.id = @id`,
  ).get({ id: participantId }) as Row;
  return toRecord(r, intervalOf(db, p.study_id), nowMs);
};

export type EditRefusal = 'not_found' | 'code_taken' | 'account_taken' | 'has_account';

export const createParticipant = (db: Db, studyId: number, code: string, at: string): { id: number } | EditRefusal => {
  if (!stmt(db, `SELECT 1 FROM studies WHERE id = ?`).get(studyId)) return 'not_found';
  if (stmt(db, `SELECT 1 FROM participants WHERE study_id = ? AND code = ?`).get(studyId, code)) return 'code_taken';
  const id = Number(stmt(db, `INSERT INTO participants (study_id, code, created_at) VALUES (?, ?, ?)`).run(studyId, code, at).lastInsertRowid);
  return { id };
};

export const renameParticipant = (db: Db, participantId: number, code: string): true | EditRefusal => {
  const p = stmt(db, `SELECT study_id, code FROM participants WHERE id = ?`).get(participantId) as { study_id: number; code: string } | undefined;
  if (!p) return 'not_found';
  if (p.code === code) return true;
  if (stmt(db, `SELECT 1 FROM participants WHERE study_id = ? AND code = ? AND id <> ?`).get(p.study_id, code, participantId)) return 'code_taken';
  stmt(db, `UPDATE participants SET code = ? WHERE id = ?`).run(code, participantId);
  return true;
};

export const setParticipantNotes = (db: Db, participantId: number, notes: string): true | EditRefusal =>
  stmt(db, `UPDATE participants SET notes = ? WHERE id = ?`).run(notes, participantId).changes === 1 ? true : 'not_found';

/**
 * Links a service account that already exists (created in another tool or an earlier workstation) to
 * a participant without one; its files waiting for an account are queued. Refused when the participant
 * already has an account (its results would be split across two) or the account belongs to another
 * participant of the study.
 */
export const linkAccount = (db: Db, participantId: number, accountId: string, at: string): true | EditRefusal =>
  db.transaction((): true | EditRefusal => {
    const p = stmt(db, `SELECT study_id, account_id FROM participants WHERE id = ?`).get(participantId) as { study_id: number; account_id: string | null } | undefined;
    if (!p) return 'not_found';
    if (p.account_id !== null) return p.account_id.toLowerCase() === accountId.toLowerCase() ? true : 'has_account';
    if (stmt(db, `SELECT 1 FROM participants WHERE study_id = ? AND lower(account_id) = lower(?)`).get(p.study_id, accountId)) return 'account_taken';
    stmt(db, `UPDATE participants SET account_id = ?, account_created_at = ? WHERE id = ?`).run(accountId.toLowerCase(), at, participantId);
    stmt(db, `UPDATE recordings SET upload_state = 'queued' WHERE participant_id = ? AND upload_state = 'pending'`).run(participantId);
    appendEvent(db, at, 'account_linked', { studyId: p.study_id }, { participant_id: participantId, account_id: accountId.toLowerCase() });
    return true;
  }).immediate();
