/**
 * Service profiles: a base address, an API version and a key. The key goes in (create, replace) and
 * never comes back out: the renderer learns only whether a profile has one and where it is kept.
 */
import { z } from 'zod';
import { ApiVersion } from '../api/vocabulary';
import { LIMITS, nameText, PLAIN, strict } from './bounds';
import { action, NoInput, procedure } from '../rpc';
import { Id, UsageSchema } from './views';

export const ProfileViewSchema = z.object({
  id: Id,
  name: z.string(),
  baseUrl: z.string(),
  apiVersion: ApiVersion,
  /** The built-in sandbox: every result it gives is simulated. */
  isSandbox: z.boolean(),
  hasKey: z.boolean(),
  /** Where the key is kept, for the researcher: "operating system keychain", "key file", "environment variable X". */
  keyLocation: z.string().nullable(),
  studies: z.number(),
  lastUsage: z.object({ at: z.string(), usage: UsageSchema }).nullable(),
});
export type ProfileView = z.infer<typeof ProfileViewSchema>;

const ApiKey = z
  .string()
  .trim()
  .min(8, 'An API key is at least 8 characters long.')
  .max(LIMITS.apiKey)
  .regex(PLAIN, 'An API key holds no control characters or spaces inside it.');
const BaseUrl = z
  .string()
  .trim()
  .min(1, 'Enter the service address.')
  .max(LIMITS.url)
  .regex(PLAIN, 'A service address holds no control characters.');

export const ConnectionTestSchema = z.object({
  /** The service's answer to ping. */
  ping: z.string(),
  usage: UsageSchema,
  /** The service's clock minus this computer's (seconds, from its `Date` header); null when it sent none. */
  serviceClockOffsetSeconds: z.number().nullable(),
});

export const profilesContract = {
  'profiles.list': procedure(NoInput, z.array(ProfileViewSchema)),
  /** Ping and usage with a key that is not saved yet (first run, "Test connection"). */
  'profiles.testDraft': action(
    strict({ baseUrl: BaseUrl, apiVersion: ApiVersion, apiKey: ApiKey }),
    ConnectionTestSchema,
    [],
  ),
  'profiles.create': action(
    strict({
      name: nameText(),
      baseUrl: BaseUrl,
      apiVersion: ApiVersion,
      apiKey: ApiKey,
    }),
    ProfileViewSchema,
    ['profiles.list', 'app.info'],
  ),
  /** The built-in sandbox as a profile (started on this computer; simulated results). */
  'profiles.useSandbox': action(strict({ apiVersion: ApiVersion }), ProfileViewSchema, [
    'profiles.list',
    'sandbox.state',
    'app.info',
  ]),
  'profiles.test': action(strict({ profileId: Id }), ConnectionTestSchema, [
    'profiles.list',
    'usage.overview',
  ]),
  'profiles.replaceKey': action(strict({ profileId: Id, apiKey: ApiKey }), ProfileViewSchema, [
    'profiles.list',
  ]),
  'profiles.removeKey': action(strict({ profileId: Id }), ProfileViewSchema, ['profiles.list']),
} as const;
