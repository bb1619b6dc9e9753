/**
 * Reassigning a recording to another participant of the same study or another session label, and
 * undoing it. After upload the act warns that the service analysed it under the first participant's
 * account, and the recording's provenance says so.
 */
import { err, ok } from '../../../shared/result';
import {
  curatedRecording,
  moveRecording,
  nextCurationActId,
  participantOfStudy,
  type CuratedRecording,
  type CurationActRow,
  type ProvenanceNote,
} from '../../db/repos/curation.repo';
import { problem } from '../service-context';
import {
  NO_RECORDING,
  RECORDING_CHANGED,
  SENT_STATES,
  type ActContext,
  type ActResult,
  type UndoBase,
} from './acts';

/** The part of a recording a reassignment changes, as its before and after. */
export interface Filing {
  readonly participantId: number;
  readonly participant: string;
  readonly session: string | null;
  readonly provenance: readonly ProvenanceNote[];
}

export const filingOf = (r: CuratedRecording): Filing => ({
  participantId: r.participantId,
  participant: r.participantCode,
  session: r.session,
  provenance: r.provenance,
});

export const reassignRecording =
  (c: ActContext) =>
  async (
    recordingId: number,
    to: { participantId?: number; session?: string | null },
    reasonIn?: string,
  ): ActResult => {
    const { store, iso, cleanReason, recordIn } = c;
    const reason = cleanReason(reasonIn);
    if (!reason.ok) return reason;
    const r = await curatedRecording(store, recordingId);
    if (!r) return err(NO_RECORDING);
    if (r.uploadState === 'uploading')
      return err(
        problem(
          'This recording is being uploaded right now.',
          'Wait until its upload has finished (or is marked uncertain), then reassign it.',
        ),
      );
    const target = to.participantId === undefined ? null : await participantOfStudy(store, to.participantId);
    if (to.participantId !== undefined && (!target || target.studyId !== r.studyId))
      return err(
        problem('That participant is not in this study.', 'Choose a participant of the same study.'),
      );
    const session =
      to.session === undefined ? r.session : to.session === null ? null : to.session.trim() || null;
    const participantId = target?.id ?? r.participantId;
    if (participantId === r.participantId && session === r.session)
      return err(problem('The recording is already filed there.', 'Choose another participant or session.'));
    const moved = participantId !== r.participantId;
    const sent = SENT_STATES.has(r.uploadState) || r.serviceRecordingId !== null;
    const at = iso();
    const warning =
      moved && sent
        ? `The service analysed this recording under participant ${r.participantCode}'s account; its results stay as the service gave them. The recording's provenance now says so.`
        : null;
    const before = filingOf(r);
    // The act's id is the next one: the note names it so the export can join the two.
    const provenance = (act: number): ProvenanceNote[] =>
      warning
        ? [
            ...r.provenance,
            {
              at,
              act,
              note: `Reassigned from participant ${r.participantCode} to ${target!.code} after upload: the service analysed it under ${r.participantCode}'s account.`,
            },
          ]
        : [...r.provenance];
    const act = await store.transaction(
      async (tx) => {
        const next = await nextCurationActId(tx);
        const after: Filing = {
          participantId,
          participant: target?.code ?? r.participantCode,
          session,
          provenance: provenance(next),
        };
        const a = after;
        return recordIn(
          tx,
          {
            studyId: r.studyId,
            act: 'reassign',
            recordingId,
            reason: reason.value,
            before,
            after: a,
            detail: {
              participant_before: r.participantId,
              participant_after: participantId,
              session_changed: session !== r.session,
              after_upload: sent,
            },
          },
          (t) => moveRecording(t, recordingId, participantId, session, a.provenance),
        );
      },
      { repeatable: true },
    );
    c.wake();
    return ok({ act, warning });
  };

/** Files the recording back where the reassignment found it, if it is still where that act left it. */
export const undoReassign = async (
  c: ActContext,
  a: CurationActRow,
  r: CuratedRecording,
  base: UndoBase,
): ActResult => {
  const was = a.after as Filing;
  const back = a.before as Filing;
  if (r.participantId !== was.participantId || r.session !== was.session) return err(RECORDING_CHANGED);
  if (!(await participantOfStudy(c.store, back.participantId)))
    return err(problem('The participant it was filed under no longer exists.', 'Reassign it as a new act.'));
  const act = await c.record(
    {
      ...base,
      before: filingOf(r),
      after: back,
      detail: { participant_before: r.participantId, participant_after: back.participantId },
    },
    (tx) => moveRecording(tx, base.recordingId, back.participantId, back.session, back.provenance),
  );
  c.wake();
  return ok({ act, warning: null });
};
