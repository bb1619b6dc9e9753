import type { usageContract } from '../../../shared/contract/usage.contract';
import { ok } from '../../../shared/result';
import type { HandlersOf } from '../router';
import { fromProblem, type HostDeps } from './deps';

export const usageHandlers = (d: HostDeps): HandlersOf<typeof usageContract> => {
  const { service } = d;
  return {
    async 'usage.read'({ profileId }) {
      const r = await service.readUsage(profileId);
      return r.ok ? ok(r.value) : fromProblem(r.error);
    },
    'usage.overview': async ({ profileId }) => ok(await service.usageOverview(profileId)),
  };
};
