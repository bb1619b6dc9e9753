import type { recordingsContract } from '../../../shared/contract/recordings.contract';
import { ok } from '../../../shared/result';
import { recordingPage, recordingRows } from '../../db/repos/recordings-view.repo';
import { retryRecordings } from '../../db/repos/retry.repo';
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
    'recordings.uncertain': ({ studyId }) => ok(service.uncertainUploads(studyId)),
    'recordings.resolveUncertain': ({ recordingId, decision }) => ok({ done: service.resolveUncertain(recordingId, decision) }),
    'recordings.insistDuplicate': ({ recordingId }) => ok({ done: service.insistOnDuplicate(recordingId) }),
  };
};
