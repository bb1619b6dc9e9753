/**
 * The short lists above the import preview's table, each of one action with what the researcher can
 * do: refused files and files without a participant with their reasons, borderline files to send, and
 * duplicates to send anyway (the table below holds every file).
 */
import type { PlannedAction } from '../../../../shared/study';
import { ErrorNotice } from '../../components/Feedback';
import { Checkbox } from '../../components/Form';
import { useCall } from '../../lib/api';
import { fmtInt, fmtSeconds } from '../../lib/format';
import { reasonOf, whatToDo } from './plan-file-words';

/** Borderline files, each sent only if the researcher ticks it (or every one, at the confirm step). */
export const Borderline = ({
  planId,
  sent,
  onSend,
}: {
  planId: string;
  sent: ReadonlySet<string>;
  onSend: (path: string, v: boolean) => void;
}) => {
  const q = useCall('imports.planFiles', { planId, action: 'borderline', offset: 0, limit: 200 });
  if (q.error) return <ErrorNotice error={q.error.appError} onRetry={() => void q.refetch()} />;
  if (!q.data || q.data.total === 0) return null;
  return (
    <fieldset className="duplicates">
      <legend>Borderline: about 30 s of speech ({fmtInt(q.data.total)})</legend>
      <p className="hint">
        The local estimate is too near the service's 30 s minimum to tell. Tick the files to send: the service
        decides, and a refusal costs no credit. The confirm step can send all of them at once.
      </p>
      {q.data.rows.map((f) => (
        <Checkbox
          key={f.path}
          label={`Send ${f.fileName} (about ${fmtSeconds(f.speechSeconds)} of speech)`}
          checked={sent.has(f.path)}
          onChange={(v) => onSend(f.path, v)}
        />
      ))}
      {q.data.total > q.data.rows.length && (
        <p className="muted small">
          The first {q.data.rows.length} are listed; open any other one in the table to send it.
        </p>
      )}
    </fieldset>
  );
};

/** A short list of files of one action, each with its reason and what to do (the table holds them all). */
export const ReasonList = ({
  planId,
  action,
  title,
}: {
  planId: string;
  action: PlannedAction;
  title: string;
}) => {
  const q = useCall('imports.planFiles', { planId, action, offset: 0, limit: 100 });
  if (q.error) return <ErrorNotice error={q.error.appError} onRetry={() => void q.refetch()} />;
  if (!q.data || q.data.total === 0) return null;
  return (
    <div className="reason-list">
      <h3>
        {title} ({fmtInt(q.data.total)})
      </h3>
      <table className="table compact">
        <thead>
          <tr>
            <th scope="col">File</th>
            <th scope="col">Why</th>
            <th scope="col">What to do</th>
          </tr>
        </thead>
        <tbody>
          {q.data.rows.map((f) => (
            <tr key={f.path}>
              <th scope="row" title={f.path}>
                {f.fileName}
              </th>
              <td>{reasonOf(f)}</td>
              <td>{whatToDo(f)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {q.data.total > q.data.rows.length && (
        <p className="muted small">
          The first {fmtInt(q.data.rows.length)} are listed; the table below holds all of them.
        </p>
      )}
    </div>
  );
};

export const Duplicates = ({
  planId,
  insist,
  onInsist,
}: {
  planId: string;
  insist: ReadonlySet<string>;
  onInsist: (path: string, v: boolean) => void;
}) => {
  const q = useCall('imports.planFiles', { planId, action: 'duplicate', offset: 0, limit: 200 });
  if (q.error) return <ErrorNotice error={q.error.appError} onRetry={() => void q.refetch()} />;
  if (!q.data || q.data.total === 0) return null;
  return (
    <fieldset className="duplicates">
      <legend>Duplicates held back ({fmtInt(q.data.total)})</legend>
      <p className="hint">
        The same audio is already in the study, or earlier in this import, for the same participant. Sending
        it again costs a credit and gives the participant two identical sessions.
      </p>
      {q.data.rows.map((f) => (
        <Checkbox
          key={f.path}
          label={`Send ${f.fileName} anyway`}
          checked={insist.has(f.path)}
          onChange={(v) => onInsist(f.path, v)}
          hint={reasonOf(f)}
        />
      ))}
      {q.data.total > q.data.rows.length && (
        <p className="muted small">
          The first {q.data.rows.length} are listed; open any other one in the table to send it anyway.
        </p>
      )}
    </fieldset>
  );
};
