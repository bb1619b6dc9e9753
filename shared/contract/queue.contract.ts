/** The per-profile upload queue: its state, and pausing and resuming it as a whole. */
import { z } from 'zod';
import { strict } from './bounds';
import { action, procedure } from '../rpc';
import { Id } from './views';

export const QueueStateSchema = z.object({
  profileId: Id,
  running: z.boolean(),
  pause: z.object({ reason: z.string(), untilMs: z.number().nullable() }).nullable(),
  inFlight: z.number(),
});

export const queueContract = {
  'queue.state': procedure(strict({ profileId: Id }), QueueStateSchema),
  'queue.pause': action(strict({ profileId: Id }), QueueStateSchema, [
    'queue.state',
    'batches.get',
    'batches.list',
  ]),
  'queue.resume': action(strict({ profileId: Id }), QueueStateSchema, [
    'queue.state',
    'batches.get',
    'batches.list',
  ]),
} as const;
