/**
 * Start (after reading the credits left), pause, resume and cancel a batch. Cancelling asks first and
 * says what it does: files not yet sent are withdrawn; uploads already in flight finish and are charged
 * (stopping one half-way would leave its outcome unknown), and results of what was sent keep arriving.
 */
import { useState } from 'react';
import type { BatchProgress } from '../../../../shared/study';
import { ErrorNotice, Notice } from '../../components/Feedback';
import { useAction } from '../../lib/api';
import { agree, plural } from '../../lib/format';

export const BatchControls = ({ b }: { b: BatchProgress }) => {
  const pause = useAction('batches.pause');
  const resume = useAction('batches.resume');
  const cancel = useAction('batches.cancel');
  const start = useAction('batches.start');
  const credits = useAction('batches.credits');
  const [confirmCancel, setConfirmCancel] = useState(false);
  const unsent = (b.uploads.queued ?? 0) + (b.uploads.pending ?? 0) + (b.uploads.duplicate ?? 0);
  const inFlight = b.uploads.uploading ?? 0;
  const busy = pause.pending || resume.pending || cancel.pending || start.pending || credits.pending;
  const error = pause.error ?? resume.error ?? cancel.error ?? start.error;
  const live = b.state === 'open' || b.state === 'running' || b.state === 'paused';

  return (
    <div className="batch-controls">
      <div className="row">
        {b.state === 'open' && !credits.value && !credits.error && (
          <button
            type="button"
            className="primary"
            disabled={busy}
            onClick={() => void credits.run({ batchId: b.batchId })}
          >
            {credits.pending ? 'Reading the credits left…' : 'Check credits and start'}
          </button>
        )}
        {b.state === 'running' && (
          <button type="button" disabled={busy} onClick={() => void pause.run({ batchId: b.batchId })}>
            Pause this batch
          </button>
        )}
        {b.state === 'paused' && (
          <button
            type="button"
            className="primary"
            disabled={busy}
            onClick={() => void resume.run({ batchId: b.batchId })}
          >
            Resume this batch
          </button>
        )}
        {live && !confirmCancel && (
          <button type="button" className="danger" disabled={busy} onClick={() => setConfirmCancel(true)}>
            Cancel this batch…
          </button>
        )}
      </div>
      {b.state === 'open' && credits.value && (
        <Notice tone={credits.value.shortBy > 0 ? 'warn' : 'info'} title="Before it starts">
          <p>{credits.value.message}</p>
          <div className="row">
            <button
              type="button"
              className="primary"
              disabled={busy}
              onClick={() => void start.run({ batchId: b.batchId })}
            >
              Start sending
            </button>
            <button type="button" onClick={() => credits.reset()}>
              Not now
            </button>
          </div>
        </Notice>
      )}
      {b.state === 'open' && credits.error && (
        <div className="notice notice-warn" role="group" aria-label="Credits could not be read">
          <p className="notice-title">The credits left could not be read</p>
          <p>
            {credits.error.message} {credits.error.action}
          </p>
          <p>
            You can start anyway: if the service refuses uploads for the whole organisation, sending pauses
            with the reason and nothing is charged.
          </p>
          <div className="row">
            <button
              type="button"
              disabled={busy}
              onClick={() => {
                credits.reset();
                void start.run({ batchId: b.batchId });
              }}
            >
              Start without the credit check
            </button>
            <button type="button" disabled={busy} onClick={() => void credits.run({ batchId: b.batchId })}>
              Try reading the credits again
            </button>
          </div>
        </div>
      )}
      {confirmCancel && (
        <div className="notice notice-warn" role="group" aria-labelledby="cancel-title">
          <p className="notice-title" id="cancel-title">
            Cancel this batch?
          </p>
          <ul className="plain-list">
            <li>
              {plural(unsent, 'file')} not yet sent {agree(unsent, 'is', 'are')} withdrawn and never sent
              (nothing is charged for {agree(unsent, 'it', 'them')}).
            </li>
            <li>
              {inFlight > 0
                ? `${plural(inFlight, 'upload')} in flight ${agree(inFlight, 'finishes', 'finish')} and ${agree(inFlight, 'is', 'are')} charged`
                : 'Any upload in flight finishes and is charged'}
              : stopping one half-way would leave its outcome unknown.
            </li>
            <li>Results of everything already sent keep arriving.</li>
          </ul>
          <div className="row">
            <button
              type="button"
              className="danger"
              disabled={busy}
              onClick={() => {
                setConfirmCancel(false);
                void cancel.run({ batchId: b.batchId });
              }}
            >
              Cancel the batch
            </button>
            <button type="button" onClick={() => setConfirmCancel(false)}>
              Keep it
            </button>
          </div>
        </div>
      )}
      <ErrorNotice error={error} />
    </div>
  );
};
