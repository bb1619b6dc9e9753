/** Batches: start after the credit check, pause, resume, cancel. */
import { z } from 'zod';
import { DATA_QUALITY_CODES, type DataQualityCode } from '../api/data-quality';
import { strict } from './bounds';
import { action, procedure } from '../rpc';
import { BatchProgressSchema, CreditCheckSchema, Id } from './views';

const BatchRef = strict({ batchId: Id });

/**
 * One difference in an upload receipt: the receipt compared with what was sent and the workstation's own
 * reading of the file (`receipt_check`), or the receipt read on its own (`receipt`). The upload is kept.
 */
export const ReceiptDifferenceSchema = z.object({
  recordingId: Id,
  participantCode: z.string(),
  fileName: z.string(),
  session: z.string().nullable(),
  origin: z.enum(['receipt', 'receipt_check']),
  code: z.enum(DATA_QUALITY_CODES as [DataQualityCode, ...DataQualityCode[]]),
  path: z.string(),
  received: z.string().nullable(),
  expected: z.string(),
});
export type ReceiptDifferenceView = z.infer<typeof ReceiptDifferenceSchema>;

/** Starting, pausing, resuming or cancelling a batch changes it, its files, its study and its queue. */
const BATCH_MOVES = ['batches.get', 'batches.list', 'recordings.page', 'studies.get', 'queue.state'] as const;

export const batchesContract = {
  'batches.list': procedure(strict({ studyId: Id }), z.array(BatchProgressSchema)),
  'batches.get': procedure(BatchRef, BatchProgressSchema),
  'batches.credits': procedure(BatchRef, CreditCheckSchema),
  'batches.receiptDifferences': procedure(BatchRef, z.array(ReceiptDifferenceSchema)),
  'batches.start': action(BatchRef, BatchProgressSchema, BATCH_MOVES),
  'batches.pause': action(BatchRef, BatchProgressSchema, BATCH_MOVES),
  'batches.resume': action(BatchRef, BatchProgressSchema, BATCH_MOVES),
  'batches.cancel': action(BatchRef, BatchProgressSchema, BATCH_MOVES),
} as const;
