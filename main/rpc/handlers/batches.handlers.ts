import type { batchesContract } from '../../../shared/contract/batches.contract';
import { err, ok } from '../../../shared/result';
import { appError } from '../../../shared/rpc';
import type { HandlersOf } from '../router';
import { fromProblem, notFound, type HostDeps } from './deps';

/** A batch's progress and credits, and starting, pausing, resuming or cancelling it. */
export const batchesHandlers = (d: HostDeps): HandlersOf<typeof batchesContract> => {
  const { service } = d;
  const progress = async (batchId: number) => {
    const b = await service.batchProgress(batchId);
    return b ? ok(b) : notFound('batch');
  };
  const move = async (batchId: number, moving: Promise<boolean>, what: string) => {
    const moved = await moving;
    const b = await service.batchProgress(batchId);
    if (!b) return notFound('batch');
    return moved
      ? ok(b)
      : err(
          appError(
            'CONFLICT',
            `This batch cannot be ${what} now: it is ${b.state}.`,
            'Look at its state; a finished or cancelled batch cannot change.',
          ),
        );
  };
  return {
    'batches.list': async ({ studyId }) => ok(await service.batches(studyId)),
    'batches.get': ({ batchId }) => progress(batchId),
    'batches.receiptDifferences': async ({ batchId }) =>
      (await service.batchProgress(batchId))
        ? ok(await service.receiptDifferences(batchId))
        : notFound('batch'),
    async 'batches.credits'({ batchId }) {
      const r = await service.checkBatchCredits(batchId);
      return r.ok ? ok(r.value) : fromProblem(r.error);
    },
    async 'batches.start'({ batchId }) {
      const r = await service.startBatch(batchId);
      return r.ok ? ok(r.value) : fromProblem(r.error, 'CONFLICT');
    },
    'batches.pause': ({ batchId }) => move(batchId, service.pauseBatch(batchId), 'paused'),
    'batches.resume': ({ batchId }) => move(batchId, service.resumeBatch(batchId), 'resumed'),
    'batches.cancel': ({ batchId }) => move(batchId, service.cancelBatch(batchId), 'cancelled'),
  };
};
