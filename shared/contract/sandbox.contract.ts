/**
 * The built-in sandbox (a simulation of the service, for training): whether it runs, its scenario, and
 * its misbehaving mode (answers as a looser real service may give them). The vocabularies of scenarios
 * and misbehaviours are written here once; main/sandbox reads them from here.
 */
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
  'loose',
] as const;

/** Each way the sandbox can answer like a looser real service (main/sandbox/misbehave.ts). */
export const SANDBOX_MISBEHAVIOURS = [
  'free_string_ratings',
  'out_of_range',
  'probabilities_not_summing',
  'fractional_integers',
  'extra_fields',
  'nulls',
  'skewed_clock',
  'failing_polls',
  'late_completions',
  'unreadable_account',
  'unexpected_role',
] as const;
export type SandboxMisbehaviour = (typeof SANDBOX_MISBEHAVIOURS)[number];

/** In a researcher's words, for the settings screen and the documentation. */
export const MISBEHAVIOUR_TEXT: Readonly<Record<SandboxMisbehaviour, string>> = {
  free_string_ratings: 'Ratings in another letter case ("High") or in words the specification does not list',
  out_of_range: "Scores above 100 or below 0, a Parkinson's score of 250, probabilities outside 0 to 1",
  probabilities_not_summing: 'Cognition probabilities that do not add up to 1',
  fractional_integers: 'Whole-number values sent as fractions',
  extra_fields: 'Extra members and an analysis type the specification does not describe',
  nulls: 'Values sent as null, and an unrequested analysis as null',
  skewed_clock: "The service's clock six minutes behind",
  failing_polls: 'Results of some recordings that can never be fetched (the service keeps failing)',
  late_completions: 'Some results that arrive only after the five-minute timeout',
  unreadable_account: 'Some account answers that cannot be read',
  unexpected_role: 'Account answers with a role other than "speaker"',
};

export const SandboxStateSchema = z.object({
  running: z.boolean(),
  url: z.string().nullable(),
  scenario: z.enum(SANDBOX_SCENARIOS).nullable(),
  /** The misbehaviours switched on (empty: the sandbox follows the specification). */
  misbehaviours: z.array(z.enum(SANDBOX_MISBEHAVIOURS)),
});

export const sandboxContract = {
  'sandbox.state': procedure(NoInput, SandboxStateSchema),
  /** The built-in sandbox's behaviour, for training: faults, rate limits, slow answers. */
  'sandbox.setScenario': action(strict({ scenario: z.enum(SANDBOX_SCENARIOS) }), SandboxStateSchema, [
    'sandbox.state',
  ]),
  /** Which misbehaviours of a looser real service the built-in sandbox rehearses. */
  'sandbox.setMisbehaviours': action(
    strict({ misbehaviours: z.array(z.enum(SANDBOX_MISBEHAVIOURS)).max(SANDBOX_MISBEHAVIOURS.length) }),
    SandboxStateSchema,
    ['sandbox.state'],
  ),
} as const;
