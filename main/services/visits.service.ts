/**
 * Study design: the study's period and schedule, participants' status and baseline, each
 * recording's visit and the researcher's override, every expected visit with its missing-data reason,
 * and the completeness table. Reads go through the visit ledger (main/design/visit-ledger.ts).
 */
import type {
  CompletenessView,
  ParticipantStatusView,
  ParticipantVisitsView,
  RecordingVisitView,
  StudyDesignView,
  VisitRowView,
} from '../../shared/contract/visits.contract';
import { missingReason } from '../../shared/missing-data';
import { err, ok, type Result } from '../../shared/result';
import type { ParticipantStatus } from '../../shared/states';
import type { VisitRow } from '../../shared/visit-accounting';
import { scheduleProblems } from '../../shared/visits';
import { recordedAfterWithdrawal, type WithdrawalFacts } from '../../shared/withdrawal';
import { appendAudit, type AuditDetail } from '../db/repos/audit.repo';
import type { Queryable } from '../db/store/types';
import { studyName } from '../db/repos/studies.repo';
import { participantStatus, setBaselineDate, statusHistory } from '../db/repos/participant-status.repo';
import {
  designOf,
  replaceSchedule,
  setStudyPeriod,
  setVisitOverride,
  studyOfRecording,
  type VisitInput,
} from '../db/repos/study-design.repo';
import {
  buildVisitLedger,
  type LedgerParticipant,
  type LedgerRecording,
  type VisitLedger,
} from '../design/visit-ledger';
import { changeStatusAsAct } from './curation/participant-status';
import { problem, type ServiceContext, type ServiceProblem } from './service-context';

export interface VisitsService {
  studyDesign(studyId: number): Promise<StudyDesignView | null>;
  setStudyPeriod(
    studyId: number,
    p: { startDate: string | null; endDate: string | null; timeZone: string },
  ): Promise<Result<StudyDesignView, ServiceProblem>>;
  setVisitSchedule(
    studyId: number,
    visits: readonly VisitInput[],
  ): Promise<Result<StudyDesignView, ServiceProblem>>;
  /** The study's visit ledger as of `nowMs` (the exports and the command line read it whole). */
  visitLedger(studyId: number, nowMs: number): Promise<VisitLedger | null>;
  participantStatuses(studyId: number, nowMs: number): Promise<ParticipantStatusView[] | null>;
  participantVisits(participantId: number, nowMs: number): Promise<ParticipantVisitsView | null>;
  setParticipantStatus(
    participantId: number,
    change: { status: ParticipantStatus; on: string; reason?: string | undefined },
    nowMs: number,
  ): Promise<Result<ParticipantStatusView, ServiceProblem>>;
  setBaseline(
    participantId: number,
    date: string | null,
    nowMs: number,
  ): Promise<Result<ParticipantStatusView, ServiceProblem>>;
  /** `visitId` null: the researcher says "no visit"; 'clear': back to the session label and window rules. */
  setRecordingVisit(
    recordingId: number,
    visitId: number | null | 'clear',
    nowMs: number,
  ): Promise<Result<RecordingVisitView, ServiceProblem>>;
  completeness(studyId: number, nowMs: number): Promise<CompletenessView | null>;
}

export const visitRowView = (r: VisitRow): VisitRowView => ({
  participantId: r.participantId,
  participant: r.participant,
  visitId: r.visit.id,
  visit: r.visit.name,
  visitIndex: r.visit.position,
  windowFrom: r.windowFrom,
  windowTo: r.windowTo,
  recording: r.recording,
  reason: r.reason,
  code: r.reason === null ? null : missingReason(r.reason).code,
  detail: r.detail,
  recordingsInVisit: r.recordingsInVisit,
});

const statusView = (p: LedgerParticipant): ParticipantStatusView => ({
  participantId: p.id,
  code: p.code,
  status: p.status,
  statusOn: p.statusOn,
  statusReason: p.statusReason,
  baselineSet: p.baselineDate,
  baseline: p.baseline,
});

const recordingView = (l: VisitLedger, p: WithdrawalFacts, r: LedgerRecording): RecordingVisitView => ({
  recordingId: r.id,
  session: r.session,
  recordedAt: r.recordedAt,
  date: r.date,
  visitId: r.assignment.visitId,
  visit: l.design.visits.find((v) => v.id === r.assignment.visitId)?.name ?? null,
  source: r.assignment.source,
  daysSinceBaseline: r.assignment.daysSinceBaseline,
  usable: r.outcome?.usable === true,
  reason: r.outcome && !r.outcome.usable ? r.outcome.reason : null,
  detail: r.outcome && !r.outcome.usable ? r.outcome.detail : null,
  afterWithdrawal: recordedAfterWithdrawal(r.date, p),
});

type VisitAuditKind = 'visit_schedule_changed' | 'visit_assignment_changed';

/** A visit change's audit entry; one about a recording names its participant's site. */
const auditVisitChange = async (
  tx: Queryable,
  at: string,
  studyId: number,
  kind: VisitAuditKind,
  detail: { readonly recording?: number } & AuditDetail,
) =>
  appendAudit(tx, {
    at,
    kind,
    studyId,
    subject: await studyName(tx, studyId),
    detail,
    about: { recordingId: detail.recording ?? null },
  });

const NO_STUDY = problem('There is no such study.', 'Check the study name or number.');
const NO_PARTICIPANT = problem('There is no such participant.', 'Check the participant code.');

export const visitsService = (ctx: ServiceContext): VisitsService => {
  const { store } = ctx;
  const design = async (studyId: number): Promise<StudyDesignView | null> => {
    const d = await designOf(store, studyId);
    return d ? { ...d, visits: [...d.visits] } : null;
  };
  const ledger = (studyId: number, nowMs: number) => buildVisitLedger(store, studyId, nowMs);
  const participantIn = async (participantId: number, nowMs: number) => {
    const p = await participantStatus(store, participantId);
    if (!p) return null;
    const l = await ledger(p.studyId, nowMs);
    const lp = l?.participants.find((x) => x.id === participantId);
    return l && lp ? { l, lp } : null;
  };
  const audit = (
    tx: Queryable,
    studyId: number,
    kind: VisitAuditKind,
    detail: { readonly recording?: number } & AuditDetail = {},
  ) => auditVisitChange(tx, ctx.iso(), studyId, kind, detail);
  /** A change of the study's period or schedule and its audit entry, in one transaction. */
  const scheduleChange = (
    studyId: number,
    change: (tx: Queryable) => Promise<boolean>,
    detail: AuditDetail,
  ): Promise<boolean> =>
    store.transaction(
      async (tx) => {
        if (!(await change(tx))) return false;
        await audit(tx, studyId, 'visit_schedule_changed', detail);
        return true;
      },
      { repeatable: true },
    );
  return {
    studyDesign: design,
    async setStudyPeriod(studyId, p) {
      if (p.startDate !== null && p.endDate !== null && p.endDate < p.startDate)
        return err(problem('The study ends before it starts.', 'Check the start and end dates.'));
      const changed = await scheduleChange(studyId, (tx) => setStudyPeriod(tx, studyId, p), {
        start: p.startDate,
        end: p.endDate,
      });
      if (!changed) return err(NO_STUDY);
      return ok((await design(studyId))!);
    },
    async setVisitSchedule(studyId, visits) {
      if (!(await designOf(store, studyId))) return err(NO_STUDY);
      const problems = scheduleProblems(visits);
      if (problems.length) return err(problem(problems.join(' '), 'Correct the schedule and save it again.'));
      await scheduleChange(
        studyId,
        async (tx) => {
          await replaceSchedule(
            tx,
            studyId,
            visits.map((v) => ({ ...v, name: v.name.trim().replace(/\s+/g, ' ') })),
          );
          return true;
        },
        { visits: visits.length },
      );
      return ok((await design(studyId))!);
    },
    visitLedger: ledger,
    async participantStatuses(studyId, nowMs) {
      const l = await ledger(studyId, nowMs);
      return l ? l.participants.map(statusView) : null;
    },
    async participantVisits(participantId, nowMs) {
      const found = await participantIn(participantId, nowMs);
      if (!found) return null;
      const { l, lp } = found;
      return {
        status: statusView(lp),
        history: await statusHistory(store, participantId),
        recordings: lp.recordings.map((r) => recordingView(l, lp, r)),
        visits: l.rows.filter((r) => r.participantId === participantId).map(visitRowView),
      };
    },
    async setParticipantStatus(participantId, change, nowMs) {
      const reason = change.reason?.trim() || null;
      if (change.status === 'withdrawn' && reason === null)
        return err(
          problem(
            'A withdrawal needs its reason.',
            'Give the reason (e.g. "moved away", "consent withdrawn").',
          ),
        );
      // A curation act: who, when, before and after, an audit entry, and undo (docs/curation.md).
      if (!(await changeStatusAsAct(ctx, participantId, { status: change.status, on: change.on, reason })))
        return err(NO_PARTICIPANT);
      return ok(statusView((await participantIn(participantId, nowMs))!.lp));
    },
    async setBaseline(participantId, date, nowMs) {
      if (!(await setBaselineDate(store, participantId, date))) return err(NO_PARTICIPANT);
      return ok(statusView((await participantIn(participantId, nowMs))!.lp));
    },
    async setRecordingVisit(recordingId, visitId, nowMs) {
      const studyId = await studyOfRecording(store, recordingId);
      if (studyId === null) return err(problem('There is no such recording.', 'Check the recording number.'));
      if (
        typeof visitId === 'number' &&
        !(await designOf(store, studyId))!.visits.some((v) => v.id === visitId)
      )
        return err(problem("That visit is not in this study's schedule.", 'Pick one of the study’s visits.'));
      const before = (await ledger(studyId, nowMs))!.byRecording.get(recordingId);
      const l = await store.transaction(
        async (tx) => {
          await setVisitOverride(tx, recordingId, visitId, ctx.iso());
          const changed = (await buildVisitLedger(tx, studyId, nowMs))!;
          const now = changed.byRecording.get(recordingId)!;
          await audit(tx, studyId, 'visit_assignment_changed', {
            recording: recordingId,
            before_visit: before?.assignment.visitId ?? null,
            before_source: before?.assignment.source ?? null,
            after_visit: now.assignment.visitId,
            after_source: now.assignment.source,
          });
          return changed;
        },
        { repeatable: true },
      );
      const after = l.byRecording.get(recordingId)!;
      return ok(recordingView(l, after.participant, after));
    },
    async completeness(studyId, nowMs) {
      const l = await ledger(studyId, nowMs);
      if (!l) return null;
      return {
        studyId,
        today: l.today,
        participants: l.participants.length,
        lines: l.completeness.map((c) => ({
          visitId: c.visit.id,
          visit: c.visit.name,
          visitIndex: c.visit.position,
          expected: c.expected,
          present: c.present,
          missing: { ...c.missing },
        })),
      };
    },
  };
};
