/**
 * Sending a locally refused file anyway, where the refusal was a judgement (the local speech estimate,
 * a borderline rate); never where the service's hard limits (size, duration, format, a failed
 * conversion) make sending it pointless. And undoing it while the file has not been sent.
 */
import { LIMITS } from '../../../shared/api/vocabulary';
import { err, ok } from '../../../shared/result';
import { reopenBatchesOf } from '../../db/repos/batches.repo';
import { curatedRecording, moveUploadState, type CuratedRecording } from '../../db/repos/curation.repo';
import { problem } from '../service-context';
import { NO_RECORDING, requiredReason, type ActContext, type ActResult, type UndoBase } from './acts';

/** Why a locally refused recording may not be sent anyway; null when its refusal was a judgement. */
const hardLimit = (r: CuratedRecording): string | null => {
  if (r.uploadError !== null) return 'Its conversion failed: there is no copy the service could take.';
  const v = r.verdict;
  if (!v) return 'No local verdict was stored for it.';
  for (const f of v.findings.filter((x) => x.severity === 'refuse')) {
    const judged =
      f.code === 'speech_too_short' &&
      r.durationSeconds !== null &&
      r.durationSeconds >= LIMITS.minSpeechSeconds;
    if (!judged) return f.message;
  }
  return null;
};

export const sendRefusedAnyway =
  (c: ActContext) =>
  async (recordingId: number, reasonIn: string): ActResult => {
    const { store, iso, record } = c;
    const reason = requiredReason(
      c,
      reasonIn,
      problem('Say why this file is sent anyway.', 'Give a reason such as "speech estimate too strict".'),
    );
    if (!reason.ok) return reason;
    const r = await curatedRecording(store, recordingId);
    if (!r) return err(NO_RECORDING);
    if (r.uploadState !== 'refused_locally')
      return err(problem('This recording was not refused locally.', 'Nothing to send anyway.'));
    const limit = hardLimit(r);
    if (limit !== null)
      return err(
        problem(
          `It cannot be sent anyway: the service's own limits would refuse it. ${limit}`,
          'Fix the file (or record again) and import it anew.',
        ),
      );
    const to = r.accountId ? 'queued' : 'pending';
    const act = await record(
      {
        studyId: r.studyId,
        act: 'send_anyway',
        recordingId,
        reason: reason.value,
        before: { uploadState: 'refused_locally' },
        after: { uploadState: to },
      },
      async (tx) => {
        await moveUploadState(tx, recordingId, 'refused_locally', to);
        await reopenBatchesOf(tx, [recordingId], iso());
      },
    );
    c.wake();
    return ok({ act, warning: null });
  };

/** Refuses the file locally again, while it waits to be sent. */
export const undoSendAnyway = async (c: ActContext, r: CuratedRecording, base: UndoBase): ActResult => {
  const now = r.uploadState;
  if (now !== 'queued' && now !== 'pending')
    return err(
      problem(
        'The file has been sent (or is being sent) since; that cannot be undone.',
        'Exclude it from analysis instead if its results should not count.',
      ),
    );
  const act = await c.record(
    { ...base, before: { uploadState: now }, after: { uploadState: 'refused_locally' } },
    async (tx) => {
      if (!(await moveUploadState(tx, base.recordingId, now, 'refused_locally')))
        throw new Error('upload state moved');
    },
  );
  return ok({ act, warning: null });
};
