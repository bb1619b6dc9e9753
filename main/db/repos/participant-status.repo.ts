/**
 * A participant's status in the study (enrolled, active, completed, withdrawn with a reason), each
 * change kept with its date, and the baseline date the researcher may set (migration 0110).
 */
import type { ParticipantStatus } from '../../../shared/states';
import type { Queryable } from '../store/types';

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

export const participantStatus = async (
  q: Queryable,
  participantId: number,
): Promise<ParticipantStatusRow | null> => {
  const r = await q.get<Row>(`SELECT ${COLUMNS} FROM participants WHERE id = ?`, [participantId]);
  return r ? toStatus(r) : null;
};

export const participantStatusByCode = async (
  q: Queryable,
  studyId: number,
  code: string,
): Promise<ParticipantStatusRow | null> => {
  const r = await q.get<Row>(`SELECT ${COLUMNS} FROM participants WHERE study_id = ? AND code = ?`, [
    studyId,
    code,
  ]);
  return r ? toStatus(r) : null;
};

/** The study's participants, less those merged into another (migration 0180). */
export const participantStatusesOfStudy = async (
  q: Queryable,
  studyId: number,
): Promise<ParticipantStatusRow[]> =>
  (
    await q.all<Row>(
      `SELECT ${COLUMNS} FROM participants WHERE study_id = ? AND merged_into IS NULL ORDER BY ${q.dialect.nocase('code')}, id`,
      [studyId],
    )
  ).map(toStatus);

export const statusHistory = async (q: Queryable, participantId: number): Promise<StatusChange[]> =>
  (
    await q.all<{
      status: ParticipantStatus;
      status_on: string;
      reason: string | null;
      recorded_at: string;
    }>(
      `SELECT status, status_on, reason, recorded_at FROM participant_status_history WHERE participant_id = ? ORDER BY id`,
      [participantId],
    )
  ).map((h) => ({ status: h.status, on: h.status_on, reason: h.reason, recordedAt: h.recorded_at }));

/**
 * Sets the participant's status from a date and keeps the change in the history; returns the history
 * row's id. Two writes: the caller runs it in its transaction (`tx`), where it writes the curation act
 * (who, when, before, after, audit entry): main/services/curation/participant-status.ts.
 */
export const writeParticipantStatus = async (
  tx: Queryable,
  participantId: number,
  change: { status: ParticipantStatus; on: string; reason: string | null },
  at: string,
): Promise<number> => {
  await tx.run(`UPDATE participants SET status = ?, status_on = ?, status_reason = ? WHERE id = ?`, [
    change.status,
    change.on,
    change.reason,
    participantId,
  ]);
  const row = await tx.get<{ id: number }>(
    `INSERT INTO participant_status_history (participant_id, status, status_on, reason, recorded_at) VALUES (?, ?, ?, ?, ?) RETURNING id`,
    [participantId, change.status, change.on, change.reason, at],
  );
  return Number(row!.id);
};

/** Undoes a status change: the status before it, and its history row removed (the curation act keeps it). */
export const restoreParticipantStatus = async (
  tx: Queryable,
  participantId: number,
  before: { status: ParticipantStatus; on: string | null; reason: string | null },
  historyId: number,
): Promise<void> => {
  await tx.run(`UPDATE participants SET status = ?, status_on = ?, status_reason = ? WHERE id = ?`, [
    before.status,
    before.on,
    before.reason,
    participantId,
  ]);
  await tx.run(`DELETE FROM participant_status_history WHERE id = ? AND participant_id = ?`, [
    historyId,
    participantId,
  ]);
};

export const setBaselineDate = async (
  q: Queryable,
  participantId: number,
  date: string | null,
): Promise<boolean> =>
  (await q.run(`UPDATE participants SET baseline_date = ? WHERE id = ?`, [date, participantId])).changes ===
  1;
