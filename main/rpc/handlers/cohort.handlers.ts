import type { cohortContract } from '../../../shared/contract/cohort.contract';
import { ok } from '../../../shared/result';
import type { HandlersOf } from '../router';
import { fromProblem, notFound, type HostDeps } from './deps';

export const cohortHandlers = (d: HostDeps): HandlersOf<typeof cohortContract> => ({
  'cohort.measure': ({ studyId, measureKey, includeAfterWithdrawal }) => {
    const c = d.service.cohort(studyId, measureKey, includeAfterWithdrawal ?? false);
    return c ? ok(c) : notFound('study');
  },
  'cohort.attributes': ({ studyId }) => {
    const a = d.service.attributes(studyId);
    return a ? ok(a) : notFound('study');
  },
  'cohort.setAttributes': ({ participantId, changes }) => {
    const attributes = d.service.setAttributes(participantId, changes);
    return attributes ? ok({ attributes }) : notFound('participant');
  },
  'cohort.setAttributesFromCsv': ({ studyId, csv }) => {
    const r = d.service.importAttributes(studyId, csv);
    return r.ok ? ok(r.value) : fromProblem(r.error, 'VALIDATION');
  },
  'cohort.chartChoice': ({ studyId }) => ok(d.service.chartChoice(studyId)),
  'cohort.saveChartChoice': ({ studyId, choice }) => ok(d.service.saveChartChoice(studyId, choice)),
});
