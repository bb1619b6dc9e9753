/**
 * A study's visit ledger: its design, each participant's baseline and status, each recording's visit
 * (with where the assignment came from) and outcome, one row per expected visit, and the completeness
 * table. Built from the repositories by the rules of shared/visits.ts and shared/visit-accounting.ts;
 * the service, the command line and the exports all read this one ledger.
 */
import {
  completenessOf,
  outcomeOf,
  visitRowsOf,
  type CompletenessLine,
  type RecordingOutcome,
  type VisitRow,
} from '../../shared/visit-accounting';
import { assignVisit, baselineOf, localDate, type Baseline, type VisitAssignment } from '../../shared/visits';
import type { Queryable } from '../db/store/types';
import {
  participantStatus,
  participantStatusesOfStudy,
  type ParticipantStatusRow,
} from '../db/repos/participant-status.repo';
import { designOf, type StoredDesign } from '../db/repos/study-design.repo';
import {
  recordingVisitFactsOfParticipant,
  recordingVisitFactsOfStudy,
  type RecordingVisitFacts,
} from '../db/repos/visit-facts.repo';

export interface LedgerRecording extends RecordingVisitFacts {
  /** Calendar date in the study's time zone. */
  readonly date: string;
  readonly assignment: VisitAssignment;
  readonly outcome: RecordingOutcome;
}

export interface LedgerParticipant extends ParticipantStatusRow {
  readonly baseline: Baseline | null;
  readonly recordings: readonly LedgerRecording[];
}

export interface VisitLedger {
  readonly design: StoredDesign;
  readonly today: string;
  readonly participants: readonly LedgerParticipant[];
  /** Every recording's assignment, by recording id. */
  readonly byRecording: ReadonlyMap<number, LedgerRecording & { readonly participant: LedgerParticipant }>;
  readonly rows: readonly VisitRow[];
  readonly completeness: readonly CompletenessLine[];
}

/** One participant's baseline and each of their recordings' date, outcome and visit, by shared/visits.ts's rules. */
export const assignParticipant = (
  design: StoredDesign,
  p: ParticipantStatusRow,
  facts: readonly RecordingVisitFacts[],
): { baseline: Baseline | null; recordings: LedgerRecording[] } => {
  const tz = design.timeZone;
  const mine = facts.map((f) => ({ f, date: localDate(f.recordedAt, tz), outcome: outcomeOf(f) }));
  const baseline = baselineOf({
    set: p.baselineDate,
    recordings: mine
      .filter((m) => m.outcome !== null)
      .map((m) => ({ date: m.date, usable: m.outcome?.usable === true })),
  });
  const recordings: LedgerRecording[] = mine.map((m) => ({
    ...m.f,
    date: m.date,
    outcome: m.outcome,
    assignment: assignVisit(design.visits, baseline?.date ?? null, {
      session: m.f.session,
      date: m.date,
      override: m.f.override,
    }),
  }));
  return { baseline, recordings };
};

/** One participant's baseline and recordings' visits, without the study's ledger (the participant page reads this). */
export const participantAssignments = async (
  q: Queryable,
  participantId: number,
): Promise<{ design: StoredDesign; baseline: Baseline | null; recordings: LedgerRecording[] } | null> => {
  const p = await participantStatus(q, participantId);
  const design = p && (await designOf(q, p.studyId));
  if (!p || !design) return null;
  return {
    design,
    ...assignParticipant(design, p, await recordingVisitFactsOfParticipant(q, participantId)),
  };
};

/** One participant's entry of the ledger: baseline, recordings with their visits, and expected-visit rows. */
const ledgerEntry = (
  design: StoredDesign,
  today: string,
  p: ParticipantStatusRow,
  facts: readonly RecordingVisitFacts[],
): { participant: LedgerParticipant; rows: VisitRow[] } => {
  const { baseline, recordings } = assignParticipant(design, p, facts);
  const rows = visitRowsOf(
    design.visits,
    { ...p, baseline: baseline?.date ?? null },
    recordings.map((r) => ({ id: r.id, visitId: r.assignment.visitId, date: r.date, outcome: r.outcome })),
    design,
    today,
  );
  return { participant: { ...p, baseline, recordings }, rows };
};

/**
 * The study's ledger one participant at a time, each participant's recordings read when asked: for a
 * reader that must not hold every recording of a large study at once (the export).
 */
export const participantLedgers = async (q: Queryable, studyId: number, nowMs: number) => {
  const design = await designOf(q, studyId);
  if (!design) return null;
  const today = localDate(new Date(nowMs).toISOString(), design.timeZone);
  return {
    design,
    participants: await participantStatusesOfStudy(q, studyId),
    entryOf: async (p: ParticipantStatusRow) =>
      ledgerEntry(design, today, p, await recordingVisitFactsOfParticipant(q, p.id)),
  };
};
export type ParticipantLedgers = NonNullable<Awaited<ReturnType<typeof participantLedgers>>>;

export const buildVisitLedger = async (
  q: Queryable,
  studyId: number,
  nowMs: number,
): Promise<VisitLedger | null> => {
  const design = await designOf(q, studyId);
  if (!design) return null;
  const tz = design.timeZone;
  const today = localDate(new Date(nowMs).toISOString(), tz);
  const facts = new Map<number, RecordingVisitFacts[]>();
  for (const f of await recordingVisitFactsOfStudy(q, studyId)) {
    const list = facts.get(f.participantId);
    if (list) list.push(f);
    else facts.set(f.participantId, [f]);
  }
  const participants: LedgerParticipant[] = [];
  const byRecording = new Map<number, LedgerRecording & { participant: LedgerParticipant }>();
  const rows: VisitRow[] = [];
  for (const p of await participantStatusesOfStudy(q, studyId)) {
    const entry = ledgerEntry(design, today, p, facts.get(p.id) ?? []);
    const lp = entry.participant;
    participants.push(lp);
    for (const r of lp.recordings) byRecording.set(r.id, { ...r, participant: lp });
    rows.push(...entry.rows);
  }
  return {
    design,
    today,
    participants,
    byRecording,
    rows,
    completeness: completenessOf(design.visits, rows),
  };
};
