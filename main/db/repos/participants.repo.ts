/**
 * Participants as the workstation lists them: one page at a time, sorted and filtered in SQL, with
 * each participant's recording counts, first and last recording and last usable recording (the facts
 * data recency is judged from, in main/design/recency.ts). Also the researcher's edits: create,
 * rename, notes, link an account.
 */
import { inStudyPeriod } from '../../../shared/recency';
import type { ParticipantStatus } from '../../../shared/states';
import type { Db } from '../open';
import { stmt } from '../statements';
import { appendEventOnDb } from './event-log.repo';
import { PARTICIPANT_ATTENTION } from './needs-you-dismissals.repo';

export type ParticipantSort = 'code' | 'recordings' | 'last_recording' | 'created';
export type ParticipantFilter = 'all' | 'overdue' | 'never' | 'no_account' | 'needs_attention';

export interface ParticipantQuery {
  readonly studyId: number;
  readonly search?: string | undefined;
  readonly filter?: ParticipantFilter | undefined;
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
}

/**
 * Each participant's figures are kept on their row by migration 0040's triggers (recordings, fully
 * analysed, needing the researcher, first and last recording; cancelled files do not count), so a page
 * is an index range over participants, never an aggregate over the study's recordings.
 */
const COLUMNS = `p.id, p.study_id, p.code, p.account_id, p.notes, p.created_at,
  p.rec_count AS n, p.rec_done AS done, ${PARTICIPANT_ATTENTION} AS attention, p.first_recording_at AS first, p.last_recording_at AS last,
  p.status, p.last_usable_at AS usable,
  p.merged_into, (SELECT i.code FROM participants i WHERE i.id = p.merged_into) AS merged_code`;

/** Sort keys; NULL last recordings ("never") sort first ascending and last descending. */
const ORDER: Record<ParticipantSort, string> = {
  code: 'p.code COLLATE NOCASE',
  recordings: 'p.rec_count',
  last_recording: 'p.last_recording_at',
  created: 'p.created_at',
};

const FILTER: Record<ParticipantFilter, string> = {
  all: '1',
  // Who missed a visit of the schedule is decided outside SQL (main/design/recency.ts).
  overdue: `p.id IN (SELECT value FROM json_each(@overdueIds))`,
  // A participant merged into another (migration 0180) has no recordings but is not "never recorded".
  never: `@inPeriod = 1 AND p.status = 'active' AND p.last_usable_at IS NULL AND p.merged_into IS NULL`,
  no_account: 'p.account_id IS NULL',
  needs_attention: `${PARTICIPANT_ATTENTION} > 0`,
};

interface Row {
  id: number;
  study_id: number;
  code: string;
  account_id: string | null;
  notes: string;
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

const likePattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const studyPeriodOf = (db: Db, studyId: number): { startDate: string | null; endDate: string | null } => {
  const s = stmt(db, `SELECT start_date AS s, end_date AS e FROM studies WHERE id = ?`).get(studyId) as
    { s: string | null; e: string | null } | undefined;
  return { startDate: s?.s ?? null, endDate: s?.e ?? null };
};

const toRecord = (r: Row): ParticipantRecord => ({
  id: r.id,
  studyId: r.study_id,
  code: r.code,
  accountId: r.account_id,
  notes: r.notes,
  createdAt: r.created_at,
  recordings: r.n,
  completed: r.done,
  needsAttention: r.attention,
  firstRecordingAt: r.first,
  lastRecordingAt: r.last,
  status: r.status,
  lastUsableAt: r.usable,
  mergedInto: r.merged_into !== null ? { id: r.merged_into, code: r.merged_code ?? '' } : null,
});

export const participantPage = (
  db: Db,
  q: ParticipantQuery,
  nowMs: number,
): { rows: ParticipantRecord[]; total: number } => {
  const study = studyPeriodOf(db, q.studyId);
  const search = q.search?.trim();
  const where = `p.study_id = @studyId AND ${FILTER[q.filter ?? 'all']}${search ? ` AND p.code LIKE @search ESCAPE '\\'` : ''}`;
  const params = {
    studyId: q.studyId,
    overdueIds: JSON.stringify(q.overdueIds ?? []),
    inPeriod: inStudyPeriod(study, new Date(nowMs).toISOString().slice(0, 10)) ? 1 : 0,
    search: search ? likePattern(search) : null,
    limit: q.limit,
    offset: q.offset,
  };
  const dir = q.dir === 'desc' ? 'DESC' : 'ASC';
  // The total is its own count (an index scan) rather than a window over the page query, which would
  // make SQLite materialise and sort every matching row before it can stop at the page.
  const total = (
    stmt(db, `SELECT count(*) AS n FROM participants p WHERE ${where}`).get(params) as { n: number }
  ).n;
  const rows =
    total <= q.offset
      ? []
      : (stmt(
          db,
          `SELECT ${COLUMNS} FROM participants p WHERE ${where}
     ORDER BY ${ORDER[q.sort]} ${dir}, p.code COLLATE NOCASE ${dir}, p.id ${dir}
     LIMIT @limit OFFSET @offset`,
        ).all(params) as Row[]);
  return { rows: rows.map(toRecord), total };
};

export const participantById = (db: Db, participantId: number): ParticipantRecord | null => {
  const r = stmt(db, `SELECT ${COLUMNS} FROM participants p WHERE p.id = ?`).get(participantId) as
    Row | undefined;
  return r ? toRecord(r) : null;
};

export type EditRefusal = 'not_found' | 'code_taken' | 'account_taken' | 'has_account';

export const createParticipant = (
  db: Db,
  studyId: number,
  code: string,
  at: string,
): { id: number } | EditRefusal => {
  if (!stmt(db, `SELECT 1 FROM studies WHERE id = ?`).get(studyId)) return 'not_found';
  if (stmt(db, `SELECT 1 FROM participants WHERE study_id = ? AND code = ?`).get(studyId, code))
    return 'code_taken';
  const id = Number(
    stmt(db, `INSERT INTO participants (study_id, code, created_at) VALUES (?, ?, ?)`).run(studyId, code, at)
      .lastInsertRowid,
  );
  return { id };
};

export const renameParticipant = (db: Db, participantId: number, code: string): true | EditRefusal => {
  const p = stmt(db, `SELECT study_id, code FROM participants WHERE id = ?`).get(participantId) as
    { study_id: number; code: string } | undefined;
  if (!p) return 'not_found';
  if (p.code === code) return true;
  if (
    stmt(db, `SELECT 1 FROM participants WHERE study_id = ? AND code = ? AND id <> ?`).get(
      p.study_id,
      code,
      participantId,
    )
  )
    return 'code_taken';
  stmt(db, `UPDATE participants SET code = ? WHERE id = ?`).run(code, participantId);
  return true;
};

export const setParticipantNotes = (db: Db, participantId: number, notes: string): true | EditRefusal =>
  stmt(db, `UPDATE participants SET notes = ? WHERE id = ?`).run(notes, participantId).changes === 1
    ? true
    : 'not_found';

/**
 * Links a service account that already exists (created in another tool or an earlier workstation) to
 * a participant without one; its files waiting for an account are queued. Refused when the participant
 * already has an account (its results would be split across two) or the account belongs to another
 * participant of the study.
 */
export const linkAccount = (
  db: Db,
  participantId: number,
  accountId: string,
  at: string,
): true | EditRefusal =>
  db
    .transaction((): true | EditRefusal => {
      const p = stmt(db, `SELECT study_id, account_id FROM participants WHERE id = ?`).get(participantId) as
        { study_id: number; account_id: string | null } | undefined;
      if (!p) return 'not_found';
      if (p.account_id !== null)
        return p.account_id.toLowerCase() === accountId.toLowerCase() ? true : 'has_account';
      if (
        stmt(db, `SELECT 1 FROM participants WHERE study_id = ? AND lower(account_id) = lower(?)`).get(
          p.study_id,
          accountId,
        )
      )
        return 'account_taken';
      // Linking decides an uncertain account request too (account-intents.repo.ts).
      stmt(
        db,
        `UPDATE participants SET account_id = ?, account_created_at = ?, account_uncertain = NULL WHERE id = ?`,
      ).run(accountId.toLowerCase(), at, participantId);
      stmt(
        db,
        `UPDATE recordings SET upload_state = 'queued' WHERE participant_id = ? AND upload_state = 'pending'`,
      ).run(participantId);
      appendEventOnDb(
        db,
        at,
        'account_linked',
        { studyId: p.study_id },
        { participant_id: participantId, account_id: accountId.toLowerCase() },
      );
      return true;
    })
    .immediate();

/** The study's participants without a service account, by code. */
export const participantsWithoutAccountRows = (db: Db, studyId: number): { id: number; code: string }[] =>
  stmt(db, `SELECT id, code FROM participants WHERE study_id = ? AND account_id IS NULL ORDER BY code`).all(
    studyId,
  ) as { id: number; code: string }[];

export interface ParticipantAccountRow {
  readonly id: number;
  readonly code: string;
  readonly account_id: string | null;
}

/** Every participant of the study with its service account (null while it has none). */
export const participantAccounts = (db: Db, studyId: number): ParticipantAccountRow[] =>
  stmt(db, `SELECT id, code, account_id FROM participants WHERE study_id = ?`).all(
    studyId,
  ) as ParticipantAccountRow[];

/** The study's participant codes. */
export const participantCodesOfStudy = (db: Db, studyId: number): string[] =>
  (stmt(db, `SELECT code FROM participants WHERE study_id = ?`).all(studyId) as { code: string }[]).map(
    (r) => r.code,
  );

export const participantCountOfStudy = (db: Db, studyId: number): number =>
  (stmt(db, `SELECT count(*) AS n FROM participants WHERE study_id = ?`).get(studyId) as { n: number }).n;

/** A cheap fingerprint of the whole participants table (count, last id, total code length): it changes when codes do. */
export const participantCodesVersion = (db: Db): string => {
  const v = stmt(
    db,
    `SELECT count(*) AS n, coalesce(max(id), 0) AS m, coalesce(sum(length(code)), 0) AS l FROM participants`,
  ).get() as { n: number; m: number; l: number };
  return `${v.n}:${v.m}:${v.l}`;
};

/** Every participant code in the workspace. */
export const allParticipantCodes = (db: Db): string[] =>
  (stmt(db, `SELECT code FROM participants`).all() as { code: string }[]).map((r) => r.code);
