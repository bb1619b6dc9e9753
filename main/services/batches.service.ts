/** Batches: what starting one would cost, starting, pausing, resuming and cancelling it, and its receipts' differences. */
import { basename } from 'node:path';
import { err, ok, type Result } from '../../shared/result';
import type { ReceiptDifferenceView } from '../../shared/contract/batches.contract';
import type { BatchProgress, CreditCheckView } from '../../shared/study';
import {
  batchesOfStudy,
  batchProgress,
  batchStudyId,
  interruptedStarts,
  moveBatch,
  plannedUploadCount,
} from '../db/repos/batches.repo';
import { receiptFlagsOfBatch } from '../db/repos/data-quality.repo';
import { studyProfileId } from '../db/repos/studies.repo';
import { latestUsage } from '../db/repos/usage.repo';
import { checkCredits } from '../engine/credit-check';
import type { Engine } from './engine.service';
import { problem, type ServiceContext, type ServiceProblem } from './service-context';
import type { UsageService } from './usage.service';

export interface BatchesService {
  /** Reads usage and says what starting the batch would cost; nothing is sent. */
  checkBatchCredits(batchId: number): Promise<Result<CreditCheckView, ServiceProblem>>;
  startBatch(batchId: number): Promise<Result<BatchProgress, ServiceProblem>>;
  pauseBatch(batchId: number): Promise<boolean>;
  resumeBatch(batchId: number): Promise<boolean>;
  cancelBatch(batchId: number): Promise<boolean>;
  /**
   * Starts the batches whose import asked for a start that never happened (the process stopped between
   * the import and the start); returns their ids. Every study when `studyId` is omitted (the app's start).
   */
  startInterruptedBatches(studyId?: number): Promise<number[]>;
  /** The batches `startInterruptedBatches` would start, without starting them (`voicescope status`). */
  interruptedBatches(studyId: number): Promise<number[]>;
  batches(studyId: number): Promise<BatchProgress[]>;
  /** One batch's state and progress; null when there is no such batch. */
  batchProgress(batchId: number): Promise<BatchProgress | null>;
  /** Where the upload receipts of a batch's recordings differ from what was sent or from the specification. */
  receiptDifferences(batchId: number): Promise<ReceiptDifferenceView[]>;
}

export const batchesService = (ctx: ServiceContext, engine: Engine, usage: UsageService): BatchesService => {
  const { store, iso } = ctx;
  const wakeAll = () => engine.service.wake();
  const startMove = async (batchId: number, profileId: number | null): Promise<boolean> => {
    const before = profileId === null ? undefined : (await latestUsage(store, profileId))?.usage;
    return moveBatch(store, batchId, 'start', iso(), before ? { usageBefore: before } : {});
  };
  return {
    async checkBatchCredits(batchId) {
      const studyId = await batchStudyId(store, batchId);
      if (studyId === null) return err(problem('This batch does not exist.', 'Reload the list of batches.'));
      const read = await usage.readUsage((await studyProfileId(store, studyId))!);
      if (!read.ok) return read;
      return ok(checkCredits(read.value, await plannedUploadCount(store, batchId)));
    },
    async startBatch(batchId) {
      const studyId = await batchStudyId(store, batchId);
      if (studyId === null) return err(problem('This batch does not exist.', 'Reload the list of batches.'));
      const profileId = (await studyProfileId(store, studyId))!;
      if (!(await startMove(batchId, profileId))) {
        return err(
          problem(
            'This batch cannot be started now (it is already running, finished or cancelled).',
            'Look at its state in the batch list.',
          ),
        );
      }
      const r = await engine.ensureRunner(profileId);
      if (!r)
        return err(
          problem(
            "The API key of this study's profile cannot be read, so nothing can be sent.",
            'Open the profile and enter its API key.',
          ),
        );
      r.wake();
      return ok((await batchProgress(store, batchId))!);
    },
    pauseBatch: (id) => moveBatch(store, id, 'pause', iso()),
    async resumeBatch(id) {
      const moved = await moveBatch(store, id, 'resume', iso());
      wakeAll();
      return moved;
    },
    async cancelBatch(id) {
      const moved = await moveBatch(store, id, 'cancel', iso());
      wakeAll();
      return moved;
    },
    async startInterruptedBatches(studyId) {
      const started: number[] = [];
      for (const b of await interruptedStarts(store, studyId ?? null))
        if (await startMove(b.id, await studyProfileId(store, b.studyId))) started.push(b.id);
      if (started.length) wakeAll();
      return started;
    },
    interruptedBatches: async (studyId) => (await interruptedStarts(store, studyId)).map((b) => b.id),
    batches: (studyId) => batchesOfStudy(store, studyId),
    batchProgress: (batchId) => batchProgress(store, batchId),
    receiptDifferences: async (batchId) =>
      (await receiptFlagsOfBatch(store, batchId)).map((f) => ({
        recordingId: f.recordingId,
        participantCode: f.participantCode,
        fileName: basename(f.sourcePath),
        session: f.sessionLabel,
        origin: f.origin === 'receipt' ? ('receipt' as const) : ('receipt_check' as const),
        code: f.code,
        path: f.path,
        received: f.received,
        expected: f.expected,
      })),
  };
};
