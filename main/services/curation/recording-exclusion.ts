/** Excluding a recording from analysis with a reason (it stays in exports, marked), restoring it, and undoing either. */
import { err, ok } from '../../../shared/result';
import {
  curatedRecording,
  setExclusion,
  type CuratedRecording,
  type CurationActRow,
} from '../../db/repos/curation.repo';
import { problem } from '../service-context';
import {
  NO_RECORDING,
  RECORDING_CHANGED,
  requiredReason,
  type ActContext,
  type ActResult,
  type UndoBase,
} from './acts';

/** The part of a recording an exclusion or a restore changes, as its before and after. */
export interface Exclusion {
  readonly excluded: boolean;
  readonly at: string | null;
  readonly reason: string | null;
}

export const exclusionOf = (r: CuratedRecording): Exclusion => ({
  excluded: r.excludedAt !== null,
  at: r.excludedAt,
  reason: r.excludedReason,
});

export const excludeRecording =
  (c: ActContext) =>
  async (recordingId: number, reasonIn: string): ActResult => {
    const { store, iso, record } = c;
    const reason = requiredReason(
      c,
      reasonIn,
      problem(
        'Say why this recording is excluded.',
        'Give a reason such as "test recording" or "wrong task"; it goes into the exports.',
      ),
    );
    if (!reason.ok) return reason;
    const r = await curatedRecording(store, recordingId);
    if (!r) return err(NO_RECORDING);
    if (r.excludedAt !== null)
      return err(problem('This recording is already excluded.', 'Restore it first to exclude it anew.'));
    const at = iso();
    const after: Exclusion = { excluded: true, at, reason: reason.value };
    const act = await record(
      {
        studyId: r.studyId,
        act: 'exclude',
        recordingId,
        reason: reason.value,
        before: exclusionOf(r),
        after,
      },
      (tx) => setExclusion(tx, recordingId, at, reason.value),
    );
    return ok({ act, warning: null });
  };

export const restoreRecording =
  (c: ActContext) =>
  async (recordingId: number, reasonIn?: string): ActResult => {
    const { store, cleanReason, record } = c;
    const reason = cleanReason(reasonIn);
    if (!reason.ok) return reason;
    const r = await curatedRecording(store, recordingId);
    if (!r) return err(NO_RECORDING);
    if (r.excludedAt === null) return err(problem('This recording is not excluded.', 'Nothing to restore.'));
    const after: Exclusion = { excluded: false, at: null, reason: null };
    const act = await record(
      {
        studyId: r.studyId,
        act: 'restore',
        recordingId,
        reason: reason.value,
        before: exclusionOf(r),
        after,
      },
      (tx) => setExclusion(tx, recordingId, null, null),
    );
    return ok({ act, warning: null });
  };

/** Puts the exclusion back as an exclude or a restore found it, if the recording is still as that act left it. */
export const undoExclusion = async (
  c: ActContext,
  a: CurationActRow,
  r: CuratedRecording,
  base: UndoBase,
): ActResult => {
  const now = exclusionOf(r);
  const was = a.after as Exclusion;
  if (now.excluded !== was.excluded) return err(RECORDING_CHANGED);
  const back = a.before as Exclusion;
  const act = await c.record({ ...base, before: now, after: back }, (tx) =>
    setExclusion(tx, base.recordingId, back.excluded ? back.at : null, back.excluded ? back.reason : null),
  );
  return ok({ act, warning: null });
};
