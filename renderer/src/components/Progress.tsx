/** A batch's progress: files sent and analyses finished, as bars with their numbers in words. */
import {
  UPLOAD_STATES_IN_PROGRESS,
  UPLOAD_STATES_NEEDING_ATTENTION,
  UPLOAD_STATES_SENT,
} from '../../../shared/states';
import type { BatchProgress } from '../../../shared/study';
import { fmtInt } from '../lib/format';

const sum = (o: Readonly<Partial<Record<string, number>>>, keys: readonly string[]) =>
  keys.reduce((a, k) => a + (o[k] ?? 0), 0);

export const batchFigures = (b: BatchProgress) => {
  // Files meant to be sent: on their way, or sent (whatever the service made of them).
  const toSend = sum(b.uploads, [...UPLOAD_STATES_IN_PROGRESS, ...UPLOAD_STATES_SENT]);
  const sent = sum(b.uploads, ['uploaded']);
  const analyses = sum(b.analysesByState, ['processing', 'completed', 'error', 'timed_out', 'unanswered']);
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

/** A batch's state as a badge: "Done sending" rather than "finished", which would be untrue of refused or unknown uploads. */
export const BATCH_LABEL: Record<BatchProgress['state'], string> = {
  open: 'Not started',
  running: 'Sending',
  paused: 'Paused',
  cancelled: 'Cancelled',
  finished: 'Done sending',
};
export const BATCH_TONE: Record<BatchProgress['state'], 'info' | 'warn' | 'muted' | 'ok'> = {
  open: 'muted',
  running: 'info',
  paused: 'warn',
  cancelled: 'muted',
  finished: 'ok',
};
