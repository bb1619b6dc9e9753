/**
 * A batch's state in the researcher's words: its badge, and one sentence saying where it stands (what is
 * sent, what waits and why, what needs them). Pure, so the wording is tested without a screen.
 */
import { CLOCK_DIFFERENCE_SHOWN_SECONDS, type BatchProgress } from '../../../../shared/study';
import { batchFigures } from '../../components/Progress';
import { agree, fmtInt, plural } from '../../lib/format';

export { batchBadge } from '../../components/Progress';

/**
 * The batch's situation in one sentence. `queuePaused`: sending is paused for the whole service profile;
 * `needsYou`: the items the batch's "Needs you" section lists (dismissed ones left out; unknown:
 * the batch's own counts); `below`: that section is on the same screen (else the sentence says to open
 * the batch).
 */
export const batchStatus = (
  b: BatchProgress,
  opts: { queuePaused?: boolean; needsYou?: number | undefined; below?: boolean } = {},
): string => {
  const queuePaused = opts.queuePaused ?? false;
  const f = batchFigures(b);
  const processing = (b.analysesByState.processing ?? 0) + (b.analysesByState.timed_out ?? 0);
  const unanswered = b.analysesByState.unanswered ?? 0;
  const waitingAccount = b.uploads.pending ?? 0;
  switch (b.state) {
    case 'open':
      return 'Not started: nothing has been sent.';
    case 'paused':
      return `Paused: ${plural(f.sent, 'file')} of ${fmtInt(f.toSend)} sent; nothing more is sent until you resume.`;
    case 'cancelled':
      return `Cancelled: ${plural(f.sent, 'file')} had been sent${processing ? `; ${plural(processing, 'analysis', 'analyses')} still to come back` : ''}.`;
    case 'running':
      return queuePaused && (b.uploads.queued ?? 0) > 0
        ? `Waiting: sending is paused for this service (see above); ${plural(f.sent, 'file')} of ${fmtInt(f.toSend)} uploaded.`
        : `Sending: ${plural(f.sent, 'file')} of ${fmtInt(f.toSend)} uploaded${waitingAccount ? `; ${plural(waitingAccount, 'file')} wait for a participant account` : ''}.`;
    case 'finished': {
      const unknown = b.uploads.upload_uncertain ?? 0;
      if (unknown > 0)
        return `Waiting for you: ${plural(unknown, 'upload')} of unknown outcome ${agree(unknown, 'needs', 'need')} your decision; ${plural(f.sent, 'file')} uploaded for certain.`;
      if (processing > 0)
        return `Every file is sent; ${plural(processing, 'analysis', 'analyses')} still to come back.`;
      if (unanswered > 0)
        return `Every file is sent; the service never answered for ${plural(unanswered, 'analysis', 'analyses')} ("Check again" asks once more).`;
      const items = opts.needsYou ?? f.attention;
      return `Complete: ${plural(f.sent, 'file')} uploaded, every result back${items ? `; ${plural(items, 'item')} ${agree(items, 'needs', 'need')} you (${opts.below ? 'below' : 'open the batch'})` : ''}.`;
    }
  }
};

const duration = (seconds: number): string => {
  const m = Math.round(seconds / 60);
  return m < 120 ? plural(m, 'minute') : plural(Math.round(m / 60), 'hour');
};

/**
 * When the service's clock differs from this computer's by more than a minute: one sentence saying so,
 * and that the waiting is not affected (the schedule runs on this computer's clock). Null otherwise.
 */
export const clockNotice = (b: BatchProgress): string | null => {
  const d = b.serviceClockOffsetSeconds;
  if (d === null || Math.abs(d) <= CLOCK_DIFFERENCE_SHOWN_SECONDS) return null;
  return `The service's clock is ${duration(Math.abs(d))} ${d < 0 ? 'behind' : 'ahead of'} this computer's. Its upload times are kept as it gave them; how long Voicescope waits for results is counted on this computer's clock.`;
};
