import type { recordingsContract } from '../../../shared/contract/recordings.contract';
import type { StoredUploadError } from '../../../shared/recording-problems';
import { MEDIA_SOURCES, mediaPath } from '../../../shared/media';
import { ok } from '../../../shared/result';
import type { HandlersOf } from '../router';
import { notFound, type HostDeps } from './deps';

/** The service's refusal when the stored error is one (not a local reason or an uncertain upload's record). */
const apiErrorOf = (e: StoredUploadError | null) =>
  e && 'kind' in e && 'endpoint' in e ? e : e && 'error' in e ? (e.error ?? null) : null;

export const recordingsHandlers = (d: HostDeps): HandlersOf<typeof recordingsContract> => {
  const { service } = d;
  return {
    'recordings.page': async (q) => ok(await service.recordingPage(q)),
    'recordings.rows': async ({ ids }) => ok(await service.recordingRows(ids)),
    'recordings.retry': async ({ recordingIds }) =>
      ok(await service.retryRecordings(recordingIds, new Date(d.now()).toISOString())),
    'recordings.retryable': async ({ studyId, batchId }) => ok(await service.safeToRetry(studyId, batchId)),
    'recordings.uncertain': async ({ studyId, batchId }) =>
      ok(await service.uncertainUploads(studyId, batchId)),
    'recordings.resolveUncertain': async ({ recordingId, decision }) =>
      ok({ done: await service.resolveUncertain(recordingId, decision) }),
    'recordings.insistDuplicate': async ({ recordingId }) =>
      ok({ done: await service.insistOnDuplicate(recordingId) }),
    'recordings.detail': async ({ recordingId }) => {
      const f = await service.recordingFacts(recordingId);
      if (!f) return notFound('recording');
      const { view, uploadError, ...rest } = f;
      return ok({ ...rest, row: view, uploadError: apiErrorOf(uploadError) });
    },
    'recordings.audio': async ({ recordingId }) => {
      if (!(await service.recordingFiles(recordingId))) return notFound('recording');
      const sources = await Promise.all(
        MEDIA_SOURCES.map(async (which) => {
          const f = await service.recordingAudio(recordingId, which);
          return f.ok
            ? {
                which,
                path: mediaPath(recordingId, which),
                contentType: f.value.contentType,
                sizeBytes: f.value.sizeBytes,
                reason: null,
              }
            : { which, path: null, contentType: null, sizeBytes: null, reason: f.error };
        }),
      );
      return ok({ sources });
    },
    'recordings.speech': async ({ recordingId }) => {
      if (!(await service.recordingFiles(recordingId))) return notFound('recording');
      const r = await service.speechRegions(recordingId);
      return ok(
        r.ok
          ? { available: true as const, ...r.value, segments: [...r.value.segments] }
          : { available: false as const, reason: r.error },
      );
    },
  };
};
