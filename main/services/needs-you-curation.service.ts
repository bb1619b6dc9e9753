/**
 * Dismissing a needs-you item with a reason (docs/curation.md): a refused file, a duplicate held
 * back or a recording whose analysis failed, which the researcher has looked at and sets aside. The item
 * is identified by its recording. A dismissed item leaves the needs-you list (and the "needs you" filter)
 * while the recording stays in the state it was dismissed in; it is listed as dismissed with who, when
 * and why; undo brings it back. An upload whose outcome is unknown cannot be dismissed: it needs one of
 * its three decisions (it may have cost a credit). Each dismissal is a curation act and an audit entry.
 */
import type { CurationDone } from '../../shared/curation';
import { err, ok, type Result } from '../../shared/result';
import { UPLOAD_STATES_NEEDING_ATTENTION } from '../../shared/states';
import { nextCurationActId, type CurationActRow } from '../db/repos/curation.repo';
import {
  clearDismissal,
  dismissedItems,
  needsYouFacts,
  setDismissal,
  type DismissedItemRow,
} from '../db/repos/needs-you-dismissals.repo';
import { curationRecorder } from '../curation/recorder';
import { problem, type ServiceContext, type ServiceProblem } from './service-context';

export interface NeedsYouCurationService {
  /** Sets a recording's needs-you item aside with a reason (required). */
  dismissNeedsYouItem(recordingId: number, reason: string): Promise<Result<CurationDone, ServiceProblem>>;
  /** A study's dismissed items still in force (optionally of one batch), newest first. */
  dismissedNeedsYouItems(studyId: number, batchId?: number | null): Promise<DismissedItemRow[]>;
}

/** Upload states whose recording is a needs-you item that may be dismissed: all but an uncertain upload (below). */
const DISMISSABLE = new Set<string>(UPLOAD_STATES_NEEDING_ATTENTION.filter((s) => s !== 'upload_uncertain'));

/** What a dismissal changes, as its act's before and after. */
interface Dismissal {
  readonly dismissed: boolean;
  readonly uploadState: string;
}

export const needsYouCurationService = (
  ctx: ServiceContext,
): NeedsYouCurationService & {
  undoDismissal: (
    a: CurationActRow,
    reason: string | null,
  ) => Promise<Result<CurationDone, ServiceProblem>> | null;
} => {
  const { store } = ctx;
  const { cleanReason, record, recordIn } = curationRecorder(ctx);

  const dismiss: NeedsYouCurationService['dismissNeedsYouItem'] = async (recordingId, reasonIn) => {
    const reason = cleanReason(reasonIn);
    if (!reason.ok) return reason;
    if (reason.value === null)
      return err(
        problem(
          'Say why this item is dismissed.',
          'Give a reason such as "test file, not a participant\'s recording".',
        ),
      );
    const r = await needsYouFacts(store, recordingId);
    if (!r)
      return err(
        problem('There is no such recording.', 'Check the recording number (voicescope status lists them).'),
      );
    if (r.uploadState === 'upload_uncertain')
      return err(
        problem(
          'An upload whose outcome is unknown cannot be dismissed: it may have cost a credit and needs a decision.',
          `Decide with: voicescope resolve --recording ${recordingId} --decision queue_again|cancel|mark_uploaded_elsewhere`,
        ),
      );
    const isItem = DISMISSABLE.has(r.uploadState) || (r.uploadState === 'uploaded' && r.analysisFailed);
    if (!isItem) return err(problem('This recording does not need you.', 'Nothing to dismiss.'));
    if (r.dismissedBy !== null)
      return err(problem(`This item is already dismissed (act ${r.dismissedBy}).`, 'Nothing to dismiss.'));
    const before: Dismissal = { dismissed: false, uploadState: r.uploadState };
    const after: Dismissal = { dismissed: true, uploadState: r.uploadState };
    const act = await store.transaction(
      async (tx) => {
        const next = await nextCurationActId(tx);
        return recordIn(
          tx,
          {
            studyId: r.studyId,
            act: 'dismiss',
            recordingId,
            reason: reason.value,
            before,
            after,
          },
          (t) => setDismissal(t, recordingId, r.uploadState, next),
        );
      },
      { repeatable: true },
    );
    return ok({ act, warning: null });
  };

  const undoDismissal = (
    a: CurationActRow,
    reason: string | null,
  ): Promise<Result<CurationDone, ServiceProblem>> | null =>
    a.act === 'dismiss' ? undoDismissalOf(a, reason) : null;

  const undoDismissalOf = async (
    a: CurationActRow,
    reason: string | null,
  ): Promise<Result<CurationDone, ServiceProblem>> => {
    const recordingId = a.recordingId!;
    const r = await needsYouFacts(store, recordingId);
    if (!r || r.dismissedBy !== a.id)
      return err(
        problem(
          'The recording has moved on since it was dismissed (or was dismissed again), so there is nothing to bring back.',
          'Look at the recording as it is now.',
        ),
      );
    const act = await record(
      {
        studyId: a.studyId,
        act: 'undo',
        recordingId,
        reason,
        undoes: a.id,
        undone: 'dismiss',
        before: a.after,
        after: a.before,
      },
      (tx) => clearDismissal(tx, recordingId, a.id),
    );
    return ok({ act, warning: null });
  };

  return {
    dismissNeedsYouItem: dismiss,
    dismissedNeedsYouItems: (studyId, batchId = null) => dismissedItems(store, studyId, batchId),
    undoDismissal,
  };
};
