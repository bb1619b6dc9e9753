/** Batches: start after the credit check, pause, resume, cancel. */
import { z } from 'zod';
import { strict } from './bounds';
import { action, procedure } from '../rpc';
import { BatchProgressSchema, CreditCheckSchema, Id } from './views';

const BatchRef = strict({ batchId: Id });

/** Starting, pausing, resuming or cancelling a batch changes it, its files, its study and its queue. */
const BATCH_MOVES = ['batches.get', 'batches.list', 'recordings.page', 'studies.get', 'queue.state'] as const;

export const batchesContract = {
  'batches.list': procedure(strict({ studyId: Id }), z.array(BatchProgressSchema)),
  'batches.get': procedure(BatchRef, BatchProgressSchema),
  'batches.credits': procedure(BatchRef, CreditCheckSchema),
  'batches.start': action(BatchRef, BatchProgressSchema, BATCH_MOVES),
  'batches.pause': action(BatchRef, BatchProgressSchema, BATCH_MOVES),
  'batches.resume': action(BatchRef, BatchProgressSchema, BATCH_MOVES),
  'batches.cancel': action(BatchRef, BatchProgressSchema, BATCH_MOVES),
} as const;
