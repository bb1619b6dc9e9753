/** A participant's status changed as a curation act, and undoing that change. */
import { err, ok } from '../../../shared/result';
import type { ParticipantStatus } from '../../../shared/states';
import { curationRecorder } from '../../curation/recorder';
import type { CurationActRow } from '../../db/repos/curation.repo';
import {
  participantStatus,
  restoreParticipantStatus,
  writeParticipantStatus,
} from '../../db/repos/participant-status.repo';
import { problem, type ServiceContext } from '../service-context';
import type { ActContext, ActResult } from './acts';

/** A participant's status as a status act keeps it before and after. */
interface StatusState {
  readonly status: ParticipantStatus;
  readonly on: string | null;
  readonly reason: string | null;
}

/**
 * Changes a participant's status as a curation act (who, when, before, after, the audit entry
 * `participant_status_changed`), undoable from the participant's acts; false when there is no such
 * participant. The rules on the change itself (a withdrawal needs its reason) are the visits service's.
 */
export const changeStatusAsAct = async (
  ctx: ServiceContext,
  participantId: number,
  change: { status: ParticipantStatus; on: string; reason: string | null },
): Promise<boolean> => {
  const p = await participantStatus(ctx.store, participantId);
  if (!p) return false;
  const { recordIn } = curationRecorder(ctx);
  const at = ctx.iso();
  const before: StatusState = { status: p.status, on: p.statusOn, reason: p.statusReason };
  await ctx.store.transaction(
    async (tx) => {
      // The change first, so that its history row's id goes into the act (undo removes that row).
      const history = await writeParticipantStatus(tx, participantId, change, at);
      await recordIn(
        tx,
        {
          studyId: p.studyId,
          act: 'status',
          recordingId: null,
          participantId,
          reason: change.reason,
          before,
          after: { status: change.status, on: change.on, reason: change.reason, history },
          detail: { before: p.status, after: change.status, on: change.on },
        },
        async () => undefined,
      );
    },
    { repeatable: true },
  );
  return true;
};

/** Puts the status back as the act found it, if it is still as the act left it. */
export const undoStatus = async (c: ActContext, a: CurationActRow, reason: string | null): ActResult => {
  const { store, record } = c;
  const was = a.after as StatusState & { history: number };
  const back = a.before as StatusState;
  const now = await participantStatus(store, a.participantId!);
  if (!now || now.status !== was.status || now.statusOn !== was.on || now.statusReason !== was.reason)
    return err(
      problem(
        "The participant's status has changed since, so undoing this change would overwrite a later one.",
        'Undo the later change first, or set the status you want as a new change.',
      ),
    );
  const act = await record(
    {
      studyId: a.studyId,
      act: 'undo',
      recordingId: null,
      participantId: now.id,
      reason,
      undoes: a.id,
      undone: 'status',
      before: was,
      after: back,
      detail: { before: was.status, after: back.status },
    },
    (tx) => restoreParticipantStatus(tx, now.id, back, was.history),
  );
  return ok({ act, warning: null });
};
