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
  const deleteIt = (recordingId: number, reasonIn?: string): ActResult => {
    const { db, cleanReason, record } = c;
    const reason = cleanReason(reasonIn);
    if (!reason.ok) return reason;
    const r = curatedRecording(db, recordingId);
    const snapshot = recordingSnapshot(db, recordingId);
    if (!r || !snapshot) return err(NO_RECORDING);
    let deleted = false;
    const act = record(
      {
        studyId: r.studyId,
        act: 'delete_unsent',
        recordingId,
        reason: reason.value,
        before: snapshot,
        after: null,
      },
      () => {
        deleted = deleteNeverSent(db, recordingId);
        // Refused: roll back the transaction (nothing written, not even the act).
        if (!deleted) throw new NotNeverSent();
      },
    );
    return ok({ act, warning: null });
  };
  return (recordingId: number, reason?: string): ActResult => {
    try {
      return deleteIt(recordingId, reason);
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
export const undoDeletion = (c: ActContext, a: CurationActRow, base: UndoBase): ActResult => {
  const { db } = c;
  if (recordingExists(db, base.recordingId)) return err(RECORDING_CHANGED);
  const snapshot = a.before as RecordingSnapshot;
  const participant = participantOfStudy(db, snapshot.recording['participant_id'] as number);
  if (!participant)
    return err(
      problem(
        'The participant this recording belonged to no longer exists.',
        'Import the file again under the right participant.',
      ),
    );
  const act = c.record({ ...base, before: null, after: snapshot }, () => reinsertRecording(db, snapshot));
  c.wake();
  return ok({ act, warning: null });
};
