import type { reliabilityContract } from '../../../shared/contract/reliability.contract';
import { appError } from '../../../shared/rpc';
import { err, ok } from '../../../shared/result';
import type { ChangeSettingsRefusal } from '../../services/change-settings.service';
import type { ChangeSettingsView } from '../../../shared/contract/reliability.contract';
import type { HandlersOf } from '../router';
import { notFound, type HostDeps } from './deps';

const REFUSAL: Record<Exclude<ChangeSettingsRefusal, 'no_study'>, string> = {
  unknown_measure:
    'That measure has no numeric values to compute a change of (see the codebook for the keys).',
  out_of_range:
    'A reliability is a number from 0 to 0.99; sessions in a baseline, a whole number from 1 to 20.',
};

const answer = (r: ChangeSettingsView | ChangeSettingsRefusal | null) =>
  r === null || r === 'no_study'
    ? notFound('study')
    : typeof r === 'string'
      ? err(appError('REFUSED', REFUSAL[r], 'Correct the value and save again.'))
      : ok(r);

export const reliabilityHandlers = (d: HostDeps): HandlersOf<typeof reliabilityContract> => ({
  'reliability.get': async ({ studyId }) => answer(await d.service.changeSettings(studyId)),
  'reliability.set': async ({ studyId, measureKey, r, note }) =>
    answer(await d.service.setReliability(studyId, measureKey, r, note)),
  'reliability.remove': async ({ studyId, measureKey }) =>
    answer(await d.service.resetReliability(studyId, measureKey)),
  'reliability.setBaselineSessions': async ({ studyId, baselineSessions }) =>
    answer(await d.service.setBaselineSessions(studyId, baselineSessions)),
});
