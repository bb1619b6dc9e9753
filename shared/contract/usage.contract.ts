/** Credits and uploads remaining, their history, and what each study has spent. */
import { z } from 'zod';
import { strict } from './bounds';
import { action, procedure } from '../rpc';
import { Id, UsageSchema } from './views';

export const usageContract = {
  /** Asks the service now. */
  'usage.read': action(strict({ profileId: Id }), UsageSchema, ['usage.overview', 'profiles.list']),
  'usage.overview': procedure(
    strict({ profileId: Id }),
    z.object({
      latest: z.object({ at: z.string(), usage: UsageSchema }).nullable(),
      history: z.array(z.object({ at: z.string(), uploadsRemaining: z.number() })),
      studies: z.array(
        z.object({
          studyId: Id,
          name: z.string(),
          uploadsAccepted: z.number(),
          uploadsUncertain: z.number(),
          queued: z.number(),
        }),
      ),
    }),
  ),
} as const;
