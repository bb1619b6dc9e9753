/** The built-in sandbox: its state and the scenario it plays (simulated faults, slow answers...). */
import { ok } from '../../../shared/result';
import type { HandlersOfPrefix } from '../router';
import type { HostDeps } from './deps';

export const sandboxHandlers = (d: HostDeps): HandlersOfPrefix<'sandbox'> => ({
  'sandbox.state': () => ok(d.sandbox.state()),
  'sandbox.setScenario': ({ scenario }) => ok(d.sandbox.setScenario(scenario)),
  'sandbox.setMisbehaviours': ({ misbehaviours }) => ok(d.sandbox.setMisbehaviours(misbehaviours)),
});
