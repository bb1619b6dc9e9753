/**
 * Data after a withdrawal: a recording dated after the day a participant withdrew (their status
 * "withdrawn" and its date) is not an ordinary visit. It is flagged wherever it is shown (the
 * participant's visits, the exports' `after_withdrawal` column) so that it is not read as data the
 * participant consented to give. Dates are calendar dates (YYYY-MM-DD) in the study's time zone; a
 * recording on the day of the withdrawal itself is not after it.
 */
import type { ParticipantStatus } from './states';

export interface WithdrawalFacts {
  readonly status: ParticipantStatus;
  /** The date of the current status (YYYY-MM-DD); null when unknown. */
  readonly statusOn: string | null;
}

export const recordedAfterWithdrawal = (date: string, p: WithdrawalFacts): boolean =>
  p.status === 'withdrawn' && p.statusOn !== null && date > p.statusOn;
