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
  const done = <T>(r: { ok: true; value: T } | { ok: false; error: Parameters<typeof fromProblem>[0] }) =>
    r.ok ? ok(r.value) : fromProblem(r.error);
  return {
    'curation.recording': ({ recordingId }) => {
      const s = service.curationStateOfRecording(recordingId);
      return s ? ok({ ...s, provenance: [...s.provenance] }) : notFound('recording');
    },
    'curation.study': ({ studyId, limit }) => ok(service.curationOfStudy(studyId, limit)),
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
    'curation.participant': ({ participantId }) => ok(service.curationOfParticipant(participantId)),
    'curation.previewMerge': ({ fromId, intoId }) => done(service.previewMerge(fromId, intoId)),
    'curation.mergeParticipants': ({ fromId, intoId, reason }) =>
      done(service.mergeParticipants(fromId, intoId, reason)),
  };
};
