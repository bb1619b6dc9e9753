/** A sandbox with one lab organisation (the demo key) and the given credits and scenario, for engine tests. */
import { DEMO_API_KEY } from '../../main/sandbox/config';
import type { ScenarioPatch } from '../../main/sandbox/scenario';
import { startSandbox, type Sandbox } from '../../main/sandbox/server';

export const startLabSandbox = (opts: { credits?: number; scenario?: ScenarioPatch } = {}): Promise<Sandbox> => {
  const n = opts.credits ?? 500;
  return startSandbox({
    port: 0,
    config: {
      organisations: [{ id: 'lab', name: 'Lab', apiKeys: [DEMO_API_KEY], credits: { trial_remaining: 0, trial_granted: 0, included_remaining: n, included_granted: n, purchased_remaining: 0 } }],
      ...(opts.scenario ? { scenario: opts.scenario } : {}),
    },
  });
};
