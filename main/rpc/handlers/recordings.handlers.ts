import type { recordingsContract } from '../../../shared/contract/recordings.contract';
import type { StoredUploadError } from '../../../shared/recording-problems';
import { ok } from '../../../shared/result';
import { recordingFacts, recordingPage, recordingRows } from '../../db/repos/recordings-view.repo';
import { retryRecordings } from '../../db/repos/retry.repo';
import type { HandlersOf } from '../router';
import { notFound, type HostDeps } from './deps';

/** The service's refusal when the stored error is one (not a local reason or an uncertain upload's record). */
const apiErrorOf = (e: StoredUploadError | null) => (e && 'kind' in e && 'endpoint' in e ? e : e && 'error' in e ? e.error ?? null : null);

export const recordingsHandlers = (d: HostDeps): HandlersOf<typeof recordingsContract> => {
  const { service } = d;
  const { db } = service;
  return {
    'recordings.page': (q) => ok(recordingPage(db, q)),
    'recordings.rows': ({ ids }) => ok(recordingRows(db, ids)),
    'recordings.detail': ({ recordingId }) => {
      const f = recordingFacts(db, recordingId);
      if (!f) return notFound('recording');
      const { view, uploadError, ...rest } = f;
      return ok({ ...rest, row: view, uploadError: apiErrorOf(uploadError) });
    },
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
