import type { recordingDetailContract } from '../../../shared/contract/recording-detail.contract';
import type { StoredUploadError } from '../../../shared/recording-problems';
import { ok } from '../../../shared/result';
import type { HandlersOf } from '../router';
import { notFound, type HostDeps } from './deps';

/** The service's refusal when the stored error is one (not a local reason or an uncertain upload's record). */
const apiErrorOf = (e: StoredUploadError | null) =>
  e && 'kind' in e && 'endpoint' in e ? e : e && 'error' in e ? (e.error ?? null) : null;

export const recordingDetailHandlers = (d: HostDeps): HandlersOf<typeof recordingDetailContract> => ({
  'recordings.detail': ({ recordingId }) => {
    const f = d.service.recordingFacts(recordingId);
    if (!f) return notFound('recording');
    const { view, uploadError, ...rest } = f;
    return ok({ ...rest, row: view, uploadError: apiErrorOf(uploadError) });
  },
});
