/** A batch's progress: files sent and analyses finished, as bars with their numbers in words. */
import {
  UPLOAD_STATES_IN_PROGRESS,
  UPLOAD_STATES_NEEDING_ATTENTION,
  UPLOAD_STATES_SENT,
} from '../../../shared/states';
import type { BatchProgress } from '../../../shared/study';
import { fmtInt } from '../lib/format';
import type { Tone } from '../lib/labels';

const sum = (o: Readonly<Partial<Record<string, number>>>, keys: readonly string[]) =>
  keys.reduce((a, k) => a + (o[k] ?? 0), 0);

export const batchFigures = (b: BatchProgress) => {
  // Files meant to be sent: on their way, or sent (whatever the service made of them).
  const toSend = sum(b.uploads, [...UPLOAD_STATES_IN_PROGRESS, ...UPLOAD_STATES_SENT]);
  const sent = sum(b.uploads, ['uploaded']);
  const started = sum(b.analysesByState, ['processing', 'completed', 'error', 'timed_out', 'unanswered']);
  // An upload's analyses are counted once it is accepted; until every upload is settled, the total is
  // known beforehand: each file still to be accepted brings the batch's analyses.
  const unsettled = sum(b.uploads, [...UPLOAD_STATES_IN_PROGRESS, 'upload_uncertain']);
  const analyses = Math.max(started, started + unsettled * b.analyses.length);
  const analysed = sum(b.analysesByState, ['completed', 'error']);
  const attention =
    sum(b.uploads, UPLOAD_STATES_NEEDING_ATTENTION) + sum(b.analysesByState, ['error', 'unanswered']);
  return { toSend, sent, analyses, analysed, attention };
};

export const Bar = ({ label, value, max }: { label: string; value: number; max: number }) => (
  <div className="bar">
    <div className="bar-label">
      <span>{label}</span>
      <span>
        {fmtInt(value)} of {fmtInt(max)}
      </span>
    </div>
    <progress
      value={max === 0 ? 0 : value}
      max={Math.max(1, max)}
      aria-label={`${label}: ${value} of ${max}`}
    />
  </div>
);

export const BatchBars = ({ b }: { b: BatchProgress }) => {
  const f = batchFigures(b);
  return (
    <div className="bars">
      <Bar label="Uploaded" value={f.sent} max={f.toSend} />
      <Bar label="Analyses finished" value={f.analysed} max={f.analyses} />
    </div>
  );
};

const STATE_BADGE: Record<Exclude<BatchProgress['state'], 'finished'>, { label: string; tone: Tone }> = {
  open: { label: 'Not started', tone: 'muted' },
  running: { label: 'Sending', tone: 'info' },
  paused: { label: 'Paused', tone: 'warn' },
  cancelled: { label: 'Cancelled', tone: 'muted' },
};

/**
 * A batch's badge, matching the sentence beside it: once sending is done, "Done sending" only while
 * results are still to come; "Complete" once every result is back (never "finished" while an upload's
 * outcome is unknown).
 */
export const batchBadge = (b: BatchProgress): { label: string; tone: Tone } => {
  if (b.state !== 'finished') return STATE_BADGE[b.state];
  const f = batchFigures(b);
  if ((b.uploads.upload_uncertain ?? 0) > 0) return { label: 'Waiting for you', tone: 'bad' };
  if ((b.analysesByState.processing ?? 0) + (b.analysesByState.timed_out ?? 0) > 0)
    return { label: 'Done sending, results to come', tone: 'info' };
  if ((b.analysesByState.unanswered ?? 0) > 0) return { label: 'Results missing', tone: 'warn' };
  return f.attention > 0 ? { label: 'Complete, needs you', tone: 'warn' } : { label: 'Complete', tone: 'ok' };
};
