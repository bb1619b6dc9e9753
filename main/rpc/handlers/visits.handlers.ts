/** Study design: period, schedule, participants' status and baseline, recordings' visits, completeness. */
import type { visitsContract } from '../../../shared/contract/visits.contract';
import { ok } from '../../../shared/result';
import type { HandlersOf } from '../router';
import { fromProblem, notFound, type HostDeps } from './deps';

export const visitsHandlers = (d: HostDeps): HandlersOf<typeof visitsContract> => {
  const { service } = d;
  return {
    'visits.design': async ({ studyId }) => {
      const v = await service.studyDesign(studyId);
      return v ? ok(v) : notFound('study');
    },
    'visits.setPeriod': async ({ studyId, ...p }) => {
      const r = await service.setStudyPeriod(studyId, p);
      return r.ok ? r : fromProblem(r.error);
    },
    'visits.setSchedule': async ({ studyId, visits }) => {
      const r = await service.setVisitSchedule(studyId, visits);
      return r.ok ? r : fromProblem(r.error);
    },
    'visits.statuses': async ({ studyId }) => {
      const v = await service.participantStatuses(studyId, d.now());
      return v ? ok(v) : notFound('study');
    },
    'visits.participant': async ({ participantId }) => {
      const v = await service.participantVisits(participantId, d.now());
      return v ? ok(v) : notFound('participant');
    },
    'visits.setStatus': async ({ participantId, ...change }) => {
      const r = await service.setParticipantStatus(participantId, change, d.now());
      return r.ok ? r : fromProblem(r.error);
    },
    'visits.setBaseline': async ({ participantId, date }) => {
      const r = await service.setBaseline(participantId, date, d.now());
      return r.ok ? r : fromProblem(r.error);
    },
    'visits.setAssignment': async ({ recordingId, visitId, clear }) => {
      const r = await service.setRecordingVisit(recordingId, clear ? 'clear' : (visitId ?? null), d.now());
      return r.ok ? r : fromProblem(r.error);
    },
    'visits.completeness': async ({ studyId }) => {
      const v = await service.completeness(studyId, d.now());
      return v ? ok(v) : notFound('study');
    },
  };
};
