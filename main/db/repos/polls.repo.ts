/**
 * The poll schedule kept with the analyses: which recordings are due to be asked for their results,
 * and what a poll that got no answer (or found the analysis overdue) writes.
 */
import { ANALYSIS_STATES_POLLED } from '../../../shared/states';
import { sqlWords } from '../sql-words';
import type { Queryable } from '../store/types';
import { appendEvent, appendUnreadableAnswer } from './event-log.repo';

export interface DuePollRow {
  readonly id: number;
  readonly study_id: number;
  readonly batch_id: number | null;
  readonly recording_id: string;
  /** When the upload was accepted, on the workstation's clock: the schedule counts from here. */
  readonly accepted_at: string;
  /** The analysis types still pending, comma-separated. */
  readonly types: string;
}

/** The earliest scheduled poll on this profile (ISO 8601), or null when nothing is waiting for results. */
export const earliestPollAt = async (q: Queryable, profileId: number): Promise<string | null> =>
  (await q.get<{ at: string | null }>(
    `SELECT min(a.next_poll_at) AS at FROM analyses a JOIN recordings r ON r.id = a.recording_id JOIN studies s ON s.id = r.study_id
     WHERE s.profile_id = ? AND a.next_poll_at IS NOT NULL AND a.state IN ${sqlWords(ANALYSIS_STATES_POLLED)}`,
    [profileId],
  ))!.at;

/** Recordings on this profile with a poll due by `nowIso`, earliest first, up to `limit`. */
export const duePolls = (
  q: Queryable,
  profileId: number,
  nowIso: string,
  limit: number,
): Promise<DuePollRow[]> =>
  q.all<DuePollRow>(
    `SELECT r.id, r.study_id, r.batch_id, r.recording_id, coalesce(r.accepted_at, r.uploaded_at) AS accepted_at, ${q.dialect.groupConcat('a.type')} AS types
     FROM analyses a JOIN recordings r ON r.id = a.recording_id JOIN studies s ON s.id = r.study_id
     WHERE s.profile_id = ? AND a.next_poll_at IS NOT NULL AND a.next_poll_at <= ? AND a.state IN ${sqlWords(ANALYSIS_STATES_POLLED)}
     GROUP BY r.id ORDER BY min(a.next_poll_at) LIMIT ?`,
    [profileId, nowIso, limit],
  );

/** The analyses of a recording that are due by the time bound to `?`. */
const DUE = (a: string) =>
  `${a}.next_poll_at IS NOT NULL AND ${a}.next_poll_at <= ? AND ${a}.state IN ${sqlWords(ANALYSIS_STATES_POLLED)}`;

/**
 * Claims the recording on this profile whose poll has been due longest (the first due analysis in the
 * order of `analyses_due`, the index on next_poll_at, so the claim reads a few rows however many are
 * waiting: SQLite keeps the left table of a CROSS JOIN outermost, where its planner would otherwise
 * start from the profile's recordings and sort every due analysis; PostgreSQL plans it as any join): its due analyses' next poll
 * is moved to `holdUntilIso` in the same statement, before anyone asks the service, so no other
 * workstation polls it before then. On PostgreSQL the recording's row is locked while the statement
 * runs and a recording another workstation is claiming is passed by (`dialect.skipLocked`); a claim
 * that lost the race changes nothing (the analyses are no longer due when it reaches them) and returns
 * null, as when nothing is due. SQLite runs one statement at a time.
 */
export const claimDuePoll = async (
  q: Queryable,
  profileId: number,
  nowIso: string,
  holdUntilIso: string,
): Promise<DuePollRow | null> => {
  const taken = await q.all<{ type: string; recording_id: number }>(
    `UPDATE analyses SET next_poll_at = ? WHERE recording_id = (
       SELECT r.id FROM analyses a CROSS JOIN recordings r
       WHERE r.id = a.recording_id AND EXISTS (SELECT 1 FROM studies s WHERE s.id = r.study_id AND s.profile_id = ?)
         AND ${DUE('a')}
       ORDER BY a.next_poll_at, r.id
       LIMIT 1 ${q.dialect.skipLocked('r')})
     AND ${DUE('analyses')} RETURNING recording_id, type`,
    [holdUntilIso, profileId, nowIso, nowIso],
  );
  if (taken.length === 0) return null;
  const r = (await q.get<Omit<DuePollRow, 'types'>>(
    `SELECT id, study_id, batch_id, recording_id, coalesce(accepted_at, uploaded_at) AS accepted_at
     FROM recordings WHERE id = ?`,
    [taken[0]!.recording_id],
  ))!;
  return { ...r, types: taken.map((t) => t.type).join(',') };
};

/**
 * A poll without a readable answer: counted, the next one scheduled, and an unreadable answer's excerpt
 * kept in the event log. Run it in a transaction (the poll step writes it with the schedule's verdict).
 */
export const recordFailedPoll = async (
  q: Queryable,
  recordingId: number,
  nextPollAt: string | null,
  polledAt: string,
  unreadable?: { readonly studyId: number; readonly error: Parameters<typeof appendUnreadableAnswer>[3] },
): Promise<void> => {
  await q.run(
    `UPDATE analyses SET next_poll_at = ?, polls = polls + 1, last_polled_at = ? WHERE recording_id = ? AND state IN ${sqlWords(ANALYSIS_STATES_POLLED)}`,
    [nextPollAt, polledAt, recordingId],
  );
  if (unreadable)
    await appendUnreadableAnswer(q, polledAt, { studyId: unreadable.studyId, recordingId }, unreadable.error);
};

/** Analyses still processing past the timeout are marked timed out (re-checked slowly); returns how many. */
export const markTimedOut = async (q: Queryable, recordingId: number): Promise<number> =>
  (
    await q.run(`UPDATE analyses SET state = 'timed_out' WHERE recording_id = ? AND state = 'processing'`, [
      recordingId,
    ])
  ).changes;

/**
 * The timeout and the slower re-checks passed without an answer: the recording's unfinished analyses
 * become `unanswered`, terminal, with no next poll. Returns how many.
 */
export const markUnanswered = async (q: Queryable, recordingId: number, at: string): Promise<number> => {
  const n = (
    await q.run(
      `UPDATE analyses SET state = 'unanswered', next_poll_at = NULL WHERE recording_id = ? AND state IN ${sqlWords(ANALYSIS_STATES_POLLED)}`,
      [recordingId],
    )
  ).changes;
  if (n > 0) {
    const r = (await q.get<{ study_id: number }>(`SELECT study_id FROM recordings WHERE id = ?`, [
      recordingId,
    ]))!;
    await appendEvent(q, at, 'analysis_unanswered', { studyId: r.study_id, recordingId }, { analyses: n });
  }
  return n;
};

export interface StrandedAnalysisRow {
  readonly recording_id: number;
  readonly type: string;
  readonly state: string;
}

/**
 * The end-state invariant, as a query: analyses that are not in an end state and yet have no next
 * poll (nobody would ever ask for them again). Must always be empty; the tests and the soak test
 * assert it. `processing` and `timed_out` need a next poll; `awaiting_upload` is fine only while its
 * recording has not been accepted by the service.
 */
export const strandedAnalyses = (q: Queryable): Promise<StrandedAnalysisRow[]> =>
  q.all<StrandedAnalysisRow>(
    `SELECT a.recording_id, a.type, a.state FROM analyses a JOIN recordings r ON r.id = a.recording_id
     WHERE (a.state IN ${sqlWords(ANALYSIS_STATES_POLLED)} AND a.next_poll_at IS NULL)
        OR (a.state = 'awaiting_upload' AND r.upload_state = 'uploaded')
     ORDER BY a.recording_id, a.type`,
  );
