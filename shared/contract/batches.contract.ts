/** Batches and the per-profile queue: start after the credit check, pause, resume, cancel. */
import { z } from 'zod';
import { procedure } from '../rpc';
import { BatchProgressSchema, CreditCheckSchema, Id } from './views';

export const QueueStateSchema = z.object({
  profileId: Id,
  running: z.boolean(),
  pause: z.object({ reason: z.string(), untilMs: z.number().nullable() }).nullable(),
  inFlight: z.number(),
});

const BatchRef = z.object({ batchId: Id });

export const batchesContract = {
  'batches.list': procedure(z.object({ studyId: Id }), z.array(BatchProgressSchema)),
  'batches.get': procedure(BatchRef, BatchProgressSchema),
  'batches.credits': procedure(BatchRef, CreditCheckSchema),
  'batches.start': procedure(BatchRef, BatchProgressSchema),
  'batches.pause': procedure(BatchRef, BatchProgressSchema),
  'batches.resume': procedure(BatchRef, BatchProgressSchema),
  'batches.cancel': procedure(BatchRef, BatchProgressSchema),
  'queue.state': procedure(z.object({ profileId: Id }), QueueStateSchema),
  'queue.pause': procedure(z.object({ profileId: Id }), QueueStateSchema),
  'queue.resume': procedure(z.object({ profileId: Id }), QueueStateSchema),
} as const;
