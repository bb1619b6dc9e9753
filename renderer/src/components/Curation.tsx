/**
 * The pieces every curation act shows the same way (recording page, participant page, needs-you list):
 * the plain-words confirmation an act goes through, and the list of acts with their undo buttons.
 */
import { useState, type ReactNode } from 'react';
import { MAX_CURATION_REASON, type CurationActView } from '../../../shared/curation';
import { TextField } from './Form';
import { fmtDateTime } from '../lib/format';
import { curationActText } from '../lib/labels';
import type { RpcClient } from '../lib/rpc/client';

/**
 * The reason an act asks for, with its validation: a required reason left blank is said next to the
 * field once the researcher tries to go on (and is not sent); an optional one is sent only when given.
 */
export const useReason = (required: boolean) => {
  const [value, setValue] = useState('');
  const [tried, setTried] = useState(false);
  const missing = required && value.trim() === '';
  return {
    value,
    /** The reason to send: undefined when blank. */
    given: value.trim() === '' ? undefined : value,
    reset: () => {
      setValue('');
      setTried(false);
    },
    /** Whether the act may go on; when not, the field says why. */
    check: () => {
      setTried(true);
      return !missing;
    },
    field: { value, onChange: setValue, required, error: tried && missing ? 'Give a reason.' : null },
  };
};

export const ReasonField = ({
  value,
  onChange,
  required,
  error,
  label,
  hint,
  maxLength = MAX_CURATION_REASON,
}: {
  value: string;
  onChange: (v: string) => void;
  required: boolean;
  error: string | null;
  /** Defaults to "Reason (required)" or "Reason (optional)". */
  label?: string;
  hint?: ReactNode;
  maxLength?: number;
}) => (
  <TextField
    label={label ?? `Reason (${required ? 'required' : 'optional'})`}
    hint={hint}
    error={error}
    value={value}
    maxLength={maxLength}
    onChange={(e) => onChange(e.target.value)}
  />
);

/** A question and two buttons: the plain-words confirmation every act goes through. */
export const Confirm = ({
  title,
  children,
  yes,
  danger,
  pending,
  onYes,
  onNo,
}: {
  title: string;
  children: ReactNode;
  yes: string;
  danger?: boolean;
  pending: boolean;
  onYes: () => void;
  onNo: () => void;
}) => (
  <div className="confirm" role="group" aria-label={title}>
    <p className="notice-title">{title}</p>
    {children}
    <div className="row">
      <button type="button" className={danger ? 'danger' : 'primary'} disabled={pending} onClick={onYes}>
        {pending ? 'Working…' : yes}
      </button>
      <button type="button" disabled={pending} onClick={onNo}>
        Cancel
      </button>
    </div>
  </div>
);

/** The acts done to a recording or a participant, newest first, each undoable one with its Undo button. */
export const CurationActsTable = ({
  acts,
  caption,
  pending,
  onUndo,
}: {
  acts: readonly CurationActView[];
  caption: string;
  pending: boolean;
  onUndo: (actId: number) => void;
}) =>
  acts.length === 0 ? null : (
    <table className="table compact">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Act</th>
          <th scope="col">Who</th>
          <th scope="col">Reason</th>
          <th scope="col">
            <span className="sr-only">Undo</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {acts.map((a) => (
          <tr key={a.id}>
            <td>{fmtDateTime(a.at)}</td>
            <th scope="row">
              {curationActText(a, acts)}
              {a.undoneBy !== null ? <span className="muted"> — undone</span> : null}
            </th>
            <td>{a.who}</td>
            <td>{a.reason ?? <span className="muted">—</span>}</td>
            <td>
              {a.undoable && (
                <button type="button" className="small" disabled={pending} onClick={() => onUndo(a.id)}>
                  Undo
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );

/** The id of the participant with exactly this code in the study, or null (the acts that name one by code). */
export const participantIdByCode = async (
  rpc: RpcClient,
  studyId: number,
  code: string,
): Promise<number | null> => {
  const page = await rpc.call('participants.page', {
    studyId,
    search: code,
    sort: 'code',
    dir: 'asc',
    offset: 0,
    limit: 20,
  });
  return (page.ok ? page.value.rows.find((p) => p.code === code)?.id : undefined) ?? null;
};
