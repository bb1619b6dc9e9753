/**
 * Dismissing a needs-you item with a reason (docs/curation.md): a button that asks for the
 * reason first, and the batch's dismissed items with who, when and why, each with Undo. A dismissed item
 * leaves the needs-you lists while its recording stays as it was.
 */
import { useState } from 'react';
import { Link } from 'wouter';
import { ErrorNotice } from '../../components/Feedback';
import { useAction, useCall } from '../../lib/api';
import { fmtDateTime, fmtInt } from '../../lib/format';
import { paths } from '../../app/paths';
import { Confirm, ReasonField, useReason } from '../../components/Curation';

const fileName = (p: string) => p.split(/[\\/]/).at(-1) ?? p;

export const DismissButton = ({ recordingId, fileName: name }: { recordingId: number; fileName: string }) => {
  const dismiss = useAction('curation.dismissItem');
  const [open, setOpen] = useState(false);
  const reason = useReason(true);
  if (!open)
    return (
      <button type="button" className="small" onClick={() => setOpen(true)}>
        Dismiss…
      </button>
    );
  return (
    <>
      <Confirm
        title={`Dismiss ${name} from “Needs you”?`}
        yes="Dismiss"
        pending={dismiss.pending}
        onNo={() => {
          setOpen(false);
          reason.reset();
        }}
        onYes={async () => {
          if (!reason.check()) return;
          const res = await dismiss.run({ recordingId, reason: reason.value });
          if (res.ok) setOpen(false);
        }}
      >
        <p>
          The file stays as it is (nothing is sent or deleted); it leaves this list and is listed as
          dismissed, with your reason. You can undo it.
        </p>
        <ReasonField {...reason.field} />
      </Confirm>
      <ErrorNotice error={dismiss.error} />
    </>
  );
};

export const DismissedItems = ({ studyId, batchId }: { studyId: number; batchId: number }) => {
  const q = useCall('curation.dismissed', { studyId, batchId });
  const undo = useAction('curation.undoAct');
  if (q.error) return <ErrorNotice error={q.error.appError} onRetry={() => void q.refetch()} />;
  if (!q.data || q.data.length === 0) return null;
  return (
    <div>
      <table className="table compact">
        <caption>Dismissed ({fmtInt(q.data.length)}): set aside by you, with why</caption>
        <thead>
          <tr>
            <th scope="col">File</th>
            <th scope="col">Participant</th>
            <th scope="col">When</th>
            <th scope="col">Who</th>
            <th scope="col">Why</th>
            <th scope="col">
              <span className="sr-only">Undo</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {q.data.map((d) => (
            <tr key={d.recordingId}>
              <th scope="row">
                <Link href={paths.study(studyId).recording(d.recordingId)}>{fileName(d.path)}</Link>
              </th>
              <td>{d.participantCode}</td>
              <td>{fmtDateTime(d.at)}</td>
              <td>{d.who}</td>
              <td>{d.reason ?? '—'}</td>
              <td>
                <button
                  type="button"
                  className="small"
                  disabled={undo.pending}
                  onClick={() => void undo.run({ actId: d.act })}
                >
                  Undo
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ErrorNotice error={undo.error} />
    </div>
  );
};
