import type { recordingsContract } from '../../../shared/contract/recordings.contract';
import { ok } from '../../../shared/result';
import { recordingPage, recordingRows } from '../../db/repos/recordings-view.repo';
import { retryRecordings, safeToRetry } from '../../db/repos/retry.repo';
import { stmt } from '../../db/statements';
import type { HandlersOf } from '../router';
import type { HostDeps } from './deps';

export const recordingsHandlers = (d: HostDeps): HandlersOf<typeof recordingsContract> => {
  const { service } = d;
  const { db } = service;
  return {
    'recordings.page': (q) => ok(recordingPage(db, q)),
    'recordings.rows': ({ ids }) => ok(recordingRows(db, ids)),
    'recordings.retry': ({ recordingIds }) => {
      const r = retryRecordings(db, recordingIds, new Date(d.now()).toISOString());
      service.wake();
      return ok(r);
    },
    'recordings.retryable': ({ studyId, batchId }) => ok(safeToRetry(db, studyId, batchId)),
    'recordings.uncertain': ({ studyId, batchId }) => {
      const all = service.uncertainUploads(studyId);
      if (batchId === undefined) return ok(all);
      const inBatch = new Set(
        (
          stmt(db, `SELECT id FROM recordings WHERE batch_id = ? AND upload_state = 'upload_uncertain'`).all(
            batchId,
          ) as { id: number }[]
        ).map((r) => r.id),
      );
      return ok(all.filter((u) => inBatch.has(u.recordingId)));
    },
    'recordings.resolveUncertain': ({ recordingId, decision }) =>
      ok({ done: service.resolveUncertain(recordingId, decision) }),
    'recordings.insistDuplicate': ({ recordingId }) => ok({ done: service.insistOnDuplicate(recordingId) }),
  };
};
