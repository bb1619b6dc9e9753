/** The sending queue of each profile: its state, and pausing or resuming it by hand. */
import type { queueContract } from '../../../shared/contract/queue.contract';
import { ok } from '../../../shared/result';
import type { HandlersOf } from '../router';
import type { HostDeps } from './deps';

export const queueHandlers = (d: HostDeps): HandlersOf<typeof queueContract> => {
  const { service } = d;
  const queueState = (profileId: number) => {
    const r = service.runnerFor(profileId)?.state();
    return ok({
      profileId,
      running: r?.running ?? false,
      pause: r?.pause ? { reason: r.pause.reason, untilMs: r.pause.untilMs } : null,
      inFlight: r?.inFlight ?? 0,
    });
  };
  return {
    'queue.state': ({ profileId }) => queueState(profileId),
    'queue.pause': async ({ profileId }) => {
      await service.pauseSending(profileId);
      return queueState(profileId);
    },
    'queue.resume': async ({ profileId }) => {
      await service.resumeSending(profileId);
      return queueState(profileId);
    },
  };
};
