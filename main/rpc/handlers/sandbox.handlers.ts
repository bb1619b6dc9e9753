/** The built-in sandbox: its state and the scenario it plays (simulated faults, slow answers...). */
import type { sandboxContract } from '../../../shared/contract/sandbox.contract';
import { ok } from '../../../shared/result';
import type { HandlersOf } from '../router';
import type { HostDeps } from './deps';

export const sandboxHandlers = (d: HostDeps): HandlersOf<typeof sandboxContract> => ({
  'sandbox.state': () => ok(d.sandbox.state()),
  'sandbox.setScenario': async ({ scenario }) => ok(await d.sandbox.setScenario(scenario)),
  'sandbox.setMisbehaviours': async ({ misbehaviours }) =>
    ok(await d.sandbox.setMisbehaviours(misbehaviours)),
});
