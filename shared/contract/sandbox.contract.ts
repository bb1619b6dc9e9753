/** The built-in sandbox (a simulation of the service, for training): whether it runs, and its scenario. */
import { z } from 'zod';
import { strict } from './bounds';
import { action, NoInput, procedure } from '../rpc';

export const SANDBOX_SCENARIOS = [
  'default',
  'fast',
  'flaky',
  'rate-limited',
  'broken-schema',
  'slow',
] as const;

export const SandboxStateSchema = z.object({
  running: z.boolean(),
  url: z.string().nullable(),
  scenario: z.enum(SANDBOX_SCENARIOS).nullable(),
});

export const sandboxContract = {
  'sandbox.state': procedure(NoInput, SandboxStateSchema),
  /** The built-in sandbox's behaviour, for training: faults, rate limits, slow answers. */
  'sandbox.setScenario': action(strict({ scenario: z.enum(SANDBOX_SCENARIOS) }), SandboxStateSchema, [
    'sandbox.state',
  ]),
} as const;
