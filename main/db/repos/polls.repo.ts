/**
 * The poll schedule kept with the analyses: which recordings are due to be asked for their results,
 * and what a poll that got no answer (or found the analysis overdue) writes.
 */
import type { Db } from '../open';
import { stmt } from '../statements';
import { appendUnreadableAnswer } from './event-log.repo';

export interface DuePollRow {
  readonly id: number;
  readonly study_id: number;
  readonly batch_id: number | null;
  readonly recording_id: string;
  readonly uploaded_at: string;
  /** The analysis types still pending, comma-separated. */
  readonly types: string;
}

/** The earliest scheduled poll on this profile (ISO 8601), or null when nothing is waiting for results. */
export const earliestPollAt = (db: Db, profileId: number): string | null =>
  (
    stmt(
      db,
      `SELECT min(a.next_poll_at) AS at FROM analyses a JOIN recordings r ON r.id = a.recording_id JOIN studies s ON s.id = r.study_id
     WHERE s.profile_id = ? AND a.next_poll_at IS NOT NULL AND a.state IN ('processing', 'timed_out')`,
    ).get(profileId) as { at: string | null }
  ).at;

/** Recordings on this profile with a poll due by `nowIso`, earliest first, up to `limit`. */
export const duePolls = (db: Db, profileId: number, nowIso: string, limit: number): DuePollRow[] =>
  stmt(
    db,
    `SELECT r.id, r.study_id, r.batch_id, r.recording_id, r.uploaded_at, group_concat(a.type) AS types
     FROM analyses a JOIN recordings r ON r.id = a.recording_id JOIN studies s ON s.id = r.study_id
     WHERE s.profile_id = ? AND a.next_poll_at IS NOT NULL AND a.next_poll_at <= ? AND a.state IN ('processing', 'timed_out')
     GROUP BY r.id ORDER BY min(a.next_poll_at) LIMIT ?`,
  ).all(profileId, nowIso, limit) as DuePollRow[];

/** A poll without a readable answer: counted, the next one scheduled, and an unreadable answer's excerpt kept in the event log. */
export const recordFailedPoll = (
  db: Db,
  recordingId: number,
  nextPollAt: string | null,
  polledAt: string,
  unreadable?: { readonly studyId: number; readonly error: Parameters<typeof appendUnreadableAnswer>[3] },
): void =>
  db
    .transaction(() => {
      stmt(
        db,
        `UPDATE analyses SET next_poll_at = ?, polls = polls + 1, last_polled_at = ? WHERE recording_id = ? AND state IN ('processing', 'timed_out')`,
      ).run(nextPollAt, polledAt, recordingId);
      if (unreadable)
        appendUnreadableAnswer(db, polledAt, { studyId: unreadable.studyId, recordingId }, unreadable.error);
    })
    .immediate();

/** Analyses still processing past the schedule's patience are marked timed out; returns how many. */
export const markTimedOut = (db: Db, recordingId: number): number =>
  stmt(db, `UPDATE analyses SET state = 'timed_out' WHERE recording_id = ? AND state = 'processing'`).run(
    recordingId,
  ).changes;
