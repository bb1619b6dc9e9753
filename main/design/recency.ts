/**
 * Each participant's data recency against the study's visit schedule (shared/recency.ts decides):
 * one participant at a time for a page of the list, or every participant of a study from its visit
 * ledger for the "overdue" filter and the study's count.
 */
import { recencyOf, type Recency, type ScheduleProgress } from '../../shared/recency';
import { localDate, type Baseline } from '../../shared/visits';
import type { Queryable } from '../db/store/types';
import { designOf, type StoredDesign } from '../db/repos/study-design.repo';
import type { ParticipantStatus } from '../../shared/states';
import { buildVisitLedger, participantAssignments, type LedgerRecording } from './visit-ledger';

/** What the participant list knows of one participant without the schedule. */
export interface RecencyFacts {
  readonly id: number;
  readonly status: ParticipantStatus;
  readonly lastUsableAt: string | null;
}

const progressOf = (
  design: StoredDesign,
  baseline: Baseline | null,
  recordings: readonly LedgerRecording[],
  nowMs: number,
): ScheduleProgress | null =>
  design.visits.length === 0
    ? null
    : {
        visits: design.visits,
        baseline: baseline?.date ?? null,
        attended: new Set(
          recordings.flatMap((r) =>
            r.outcome !== null && r.assignment.visitId !== null ? [r.assignment.visitId] : [],
          ),
        ),
        today: localDate(new Date(nowMs).toISOString(), design.timeZone),
      };

export const participantRecency = async (q: Queryable, p: RecencyFacts, nowMs: number): Promise<Recency> => {
  const a = await participantAssignments(q, p.id);
  const scope = {
    status: p.status,
    startDate: a?.design.startDate ?? null,
    endDate: a?.design.endDate ?? null,
  };
  return recencyOf(p.lastUsableAt, nowMs, scope, a && progressOf(a.design, a.baseline, a.recordings, nowMs));
};

/** The study's participants with at least one missed visit, while the study follows them; none without a schedule. */
export const overdueParticipantIds = async (
  q: Queryable,
  studyId: number,
  nowMs: number,
): Promise<number[]> => {
  // Without a schedule nothing is overdue: the design says so without building the study's ledger.
  const design = await designOf(q, studyId);
  if (!design || design.visits.length === 0) return [];
  const ledger = await buildVisitLedger(q, studyId, nowMs);
  if (!ledger) return [];
  const scope = { startDate: ledger.design.startDate, endDate: ledger.design.endDate };
  return ledger.participants
    .filter(
      (p) =>
        recencyOf(
          null,
          nowMs,
          { ...scope, status: p.status },
          progressOf(ledger.design, p.baseline, p.recordings, nowMs),
        ).status === 'overdue',
    )
    .map((p) => p.id);
};
