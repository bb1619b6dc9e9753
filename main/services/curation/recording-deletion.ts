/** Deleting a recording nothing of which was sent (pending, refused locally, held duplicate, cancelled), and undoing it. */
import { err, ok } from '../../../shared/result';
import {
  curatedRecording,
  deleteNeverSent,
  participantOfStudy,
  recordingExists,
  recordingSnapshot,
  reinsertRecording,
  type CurationActRow,
  type RecordingSnapshot,
} from '../../db/repos/curation.repo';
import { problem } from '../service-context';
import { NO_RECORDING, RECORDING_CHANGED, type ActContext, type ActResult, type UndoBase } from './acts';

class NotNeverSent extends Error {}

export const deleteNeverSentRecording = (c: ActContext) => {
  const deleteIt = async (recordingId: number, reasonIn?: string): ActResult => {
    const { store, cleanReason, record } = c;
    const reason = cleanReason(reasonIn);
    if (!reason.ok) return reason;
    const r = await curatedRecording(store, recordingId);
    const snapshot = await recordingSnapshot(store, recordingId);
    if (!r || !snapshot) return err(NO_RECORDING);
    let deleted = false;
    const act = await record(
      {
        studyId: r.studyId,
        act: 'delete_unsent',
        recordingId,
        reason: reason.value,
        before: snapshot,
        after: null,
      },
      async (tx) => {
        deleted = await deleteNeverSent(tx, recordingId);
        // Refused: roll back the transaction (nothing written, not even the act).
        if (!deleted) throw new NotNeverSent();
      },
    );
    return ok({ act, warning: null });
  };
  return async (recordingId: number, reason?: string): ActResult => {
    try {
      return await deleteIt(recordingId, reason);
    } catch (e) {
      if (!(e instanceof NotNeverSent)) throw e;
      return err(
        problem(
          'Only a recording that was never sent can be deleted: this one was queued or sent to the service.',
          'Exclude it from analysis instead (it stays in the exports, marked).',
        ),
      );
    }
  };
};

/** Puts a deleted recording back from the act's snapshot, if nothing has taken its place. */
export const undoDeletion = async (c: ActContext, a: CurationActRow, base: UndoBase): ActResult => {
  const { store } = c;
  if (await recordingExists(store, base.recordingId)) return err(RECORDING_CHANGED);
  const snapshot = a.before as RecordingSnapshot;
  const participant = await participantOfStudy(store, snapshot.recording['participant_id'] as number);
  if (!participant)
    return err(
      problem(
        'The participant this recording belonged to no longer exists.',
        'Import the file again under the right participant.',
      ),
    );
  const act = await c.record({ ...base, before: null, after: snapshot }, (tx) =>
    reinsertRecording(tx, snapshot),
  );
  c.wake();
  return ok({ act, warning: null });
};
