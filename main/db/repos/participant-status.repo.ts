/**
 * A participant's status in the study (enrolled, active, completed, withdrawn with a reason), each
 * change kept with its date, and the baseline date the researcher may set (migration 0110).
 */
import type { ParticipantStatus } from '../../../shared/states';
import type { Db } from '../open';
import { stmt } from '../statements';
import { appendAudit } from './audit.repo';

export interface StatusChange {
  readonly status: ParticipantStatus;
  /** YYYY-MM-DD */
  readonly on: string;
  readonly reason: string | null;
  /** When it was recorded (ISO). */
  readonly recordedAt: string;
}

export interface ParticipantStatusRow {
  readonly id: number;
  readonly studyId: number;
  readonly code: string;
  readonly status: ParticipantStatus;
  readonly statusOn: string | null;
  readonly statusReason: string | null;
  readonly baselineDate: string | null;
}

interface Row {
  id: number;
  study_id: number;
  code: string;
  status: ParticipantStatus;
  status_on: string | null;
  status_reason: string | null;
  baseline_date: string | null;
}

const toStatus = (r: Row): ParticipantStatusRow => ({
  id: r.id,
  studyId: r.study_id,
  code: r.code,
  status: r.status,
  statusOn: r.status_on,
  statusReason: r.status_reason,
  baselineDate: r.baseline_date,
});

const COLUMNS = `id, study_id, code, status, status_on, status_reason, baseline_date`;

export const participantStatus = (db: Db, participantId: number): ParticipantStatusRow | null => {
  const r = stmt(db, `SELECT ${COLUMNS} FROM participants WHERE id = ?`).get(participantId) as
    Row | undefined;
  return r ? toStatus(r) : null;
};

export const participantStatusByCode = (
  db: Db,
  studyId: number,
  code: string,
): ParticipantStatusRow | null => {
  const r = stmt(db, `SELECT ${COLUMNS} FROM participants WHERE study_id = ? AND code = ?`).get(
    studyId,
    code,
  ) as Row | undefined;
  return r ? toStatus(r) : null;
};

/** The study's participants, less those merged into another (migration 0180). */
export const participantStatusesOfStudy = (db: Db, studyId: number): ParticipantStatusRow[] =>
  (
    stmt(
      db,
      `SELECT ${COLUMNS} FROM participants WHERE study_id = ? AND merged_into IS NULL ORDER BY code COLLATE NOCASE, id`,
    ).all(studyId) as Row[]
  ).map(toStatus);

export const statusHistory = (db: Db, participantId: number): StatusChange[] =>
  (
    stmt(
      db,
      `SELECT status, status_on, reason, recorded_at FROM participant_status_history WHERE participant_id = ? ORDER BY id`,
    ).all(participantId) as {
      status: ParticipantStatus;
      status_on: string;
      reason: string | null;
      recorded_at: string;
    }[]
  ).map((h) => ({ status: h.status, on: h.status_on, reason: h.reason, recordedAt: h.recorded_at }));

/** Sets the participant's status from a date, keeps the change in the history and the audit log. */
export const setParticipantStatus = (
  db: Db,
  participantId: number,
  change: { status: ParticipantStatus; on: string; reason: string | null },
  at: string,
): boolean =>
  db
    .transaction((): boolean => {
      const p = participantStatus(db, participantId);
      if (!p) return false;
      stmt(db, `UPDATE participants SET status = ?, status_on = ?, status_reason = ? WHERE id = ?`).run(
        change.status,
        change.on,
        change.reason,
        participantId,
      );
      stmt(
        db,
        `INSERT INTO participant_status_history (participant_id, status, status_on, reason, recorded_at) VALUES (?, ?, ?, ?, ?)`,
      ).run(participantId, change.status, change.on, change.reason, at);
      appendAudit(db, {
        at,
        kind: 'participant_status_changed',
        studyId: p.studyId,
        detail: { participant_id: participantId, before: p.status, after: change.status, on: change.on },
      });
      return true;
    })
    .immediate();

export const setBaselineDate = (db: Db, participantId: number, date: string | null): boolean =>
  stmt(db, `UPDATE participants SET baseline_date = ? WHERE id = ?`).run(date, participantId).changes === 1;
