/**
 * Curation from the window: the recording page's acts (reassign, exclude, restore, delete a never-sent
 * recording, undo) and the record of acts. Refusals become REFUSED with the service's words.
 */
import type { curationContract } from '../../../shared/contract/curation.contract';
import { ok } from '../../../shared/result';
import type { HandlersOf } from '../router';
import { fromProblem, notFound, type HostDeps } from './deps';

export const curationHandlers = (d: HostDeps): HandlersOf<typeof curationContract> => {
  const { service } = d;
  const done = async <T>(
    answer: Promise<{ ok: true; value: T } | { ok: false; error: Parameters<typeof fromProblem>[0] }>,
  ) => {
    const r = await answer;
    return r.ok ? ok(r.value) : fromProblem(r.error);
  };
  return {
    'curation.recording': async ({ recordingId }) => {
      const s = await service.curationStateOfRecording(recordingId);
      return s ? ok({ ...s, provenance: [...s.provenance] }) : notFound('recording');
    },
    'curation.study': async ({ studyId, limit }) => ok(await service.curationOfStudy(studyId, limit)),
    'curation.reassignRecording': ({ recordingId, participantId, session, reason }) =>
      done(
        service.reassignRecording(
          recordingId,
          {
            ...(participantId !== undefined ? { participantId } : {}),
            ...(session !== undefined ? { session } : {}),
          },
          reason,
        ),
      ),
    'curation.excludeRecording': ({ recordingId, reason }) =>
      done(service.excludeRecording(recordingId, reason)),
    'curation.restoreRecording': ({ recordingId, reason }) =>
      done(service.restoreRecording(recordingId, reason)),
    'curation.deleteRecording': ({ recordingId, reason }) =>
      done(service.deleteNeverSentRecording(recordingId, reason)),
    'curation.sendRecordingAnyway': ({ recordingId, reason }) =>
      done(service.sendRefusedAnyway(recordingId, reason)),
    'curation.undoAct': ({ actId, reason }) => done(service.undoCuration(actId, reason)),
    'curation.dismissItem': ({ recordingId, reason }) =>
      done(service.dismissNeedsYouItem(recordingId, reason)),
    'curation.dismissed': async ({ studyId, batchId }) =>
      ok(await service.dismissedNeedsYouItems(studyId, batchId ?? null)),
    'curation.participant': async ({ participantId }) =>
      ok(await service.curationOfParticipant(participantId)),
    'curation.planOfMerge': ({ fromId, intoId }) => done(service.previewMerge(fromId, intoId)),
    'curation.mergeParticipants': ({ fromId, intoId, reason }) =>
      done(service.mergeParticipants(fromId, intoId, reason)),
  };
};
