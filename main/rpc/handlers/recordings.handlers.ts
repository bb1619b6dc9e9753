import type { recordingsContract } from '../../../shared/contract/recordings.contract';
import { ok } from '../../../shared/result';
import type { HandlersOf } from '../router';
import type { HostDeps } from './deps';

export const recordingsHandlers = (d: HostDeps): HandlersOf<typeof recordingsContract> => {
  const { service } = d;
  return {
    'recordings.page': (q) => ok(service.recordingPage(q)),
    'recordings.rows': ({ ids }) => ok(service.recordingRows(ids)),
    'recordings.retry': ({ recordingIds }) => {
      const r = service.retryRecordings(recordingIds, new Date(d.now()).toISOString());
      return ok(r);
    },
    'recordings.retryable': ({ studyId, batchId }) => ok(service.safeToRetry(studyId, batchId)),
    'recordings.uncertain': ({ studyId, batchId }) => ok(service.uncertainUploads(studyId, batchId)),
    'recordings.resolveUncertain': ({ recordingId, decision }) =>
      ok({ done: service.resolveUncertain(recordingId, decision) }),
    'recordings.insistDuplicate': ({ recordingId }) => ok({ done: service.insistOnDuplicate(recordingId) }),
  };
};
