import type { cohortContract } from '../../../shared/contract/cohort.contract';
import { ok } from '../../../shared/result';
import type { HandlersOf } from '../router';
import { fromProblem, notFound, type HostDeps } from './deps';

export const cohortHandlers = (d: HostDeps): HandlersOf<typeof cohortContract> => ({
  'cohort.measure': async ({ studyId, measureKey, includeAfterWithdrawal }) => {
    const c = await d.service.cohort(studyId, measureKey, includeAfterWithdrawal ?? false);
    return c ? ok(c) : notFound('study');
  },
  'cohort.attributes': async ({ studyId }) => {
    const a = await d.service.attributes(studyId);
    return a ? ok(a) : notFound('study');
  },
  'cohort.setAttributes': async ({ participantId, changes }) => {
    const attributes = await d.service.setAttributes(participantId, changes);
    return attributes ? ok({ attributes }) : notFound('participant');
  },
  'cohort.setAttributesFromCsv': async ({ studyId, csv }) => {
    const r = await d.service.importAttributes(studyId, csv);
    return r.ok ? ok(r.value) : fromProblem(r.error, 'VALIDATION');
  },
  'cohort.chartChoice': async ({ studyId }) => ok(await d.service.chartChoice(studyId)),
  'cohort.saveChartChoice': async ({ studyId, choice }) =>
    ok(await d.service.saveChartChoice(studyId, choice)),
});
