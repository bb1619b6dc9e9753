/** A participant's editable details: code (rename), service account (link an existing one), notes. */
import { useState } from 'react';
import type { ParticipantRow } from '../../../../shared/contract/participants.contract';
import { ErrorNotice, Notice } from '../../components/Feedback';
import { TextField } from '../../components/Form';
import { useAction } from '../../lib/api';
import { fmtDateTime } from '../../lib/format';

/** A validation error's first message (e.g. "An account id is a UUID…") for the field; other errors go to a notice. */
const fieldMessage = (
  e: { code: string; message: string; issues?: readonly { message: string }[] | undefined } | null,
) => (e?.code === 'VALIDATION' ? (e.issues?.[0]?.message ?? e.message) : null);

const Rename = ({ p }: { p: ParticipantRow }) => {
  const [code, setCode] = useState(p.code);
  const rename = useAction('participants.rename');
  const [saved, setSaved] = useState(false);
  return (
    <form
      className="form inline-form"
      aria-label="Rename participant"
      onSubmit={(e) => {
        e.preventDefault();
        setSaved(false);
        void rename.run({ participantId: p.id, code }).then((r) => setSaved(r.ok));
      }}
    >
      <TextField
        label="Participant code"
        value={code}
        maxLength={64}
        onChange={(e) => {
          setCode(e.target.value);
          setSaved(false);
        }}
        error={fieldMessage(rename.error)}
        hint="Renaming keeps every recording and result; exports use the new code."
      />
      <div className="row">
        <button type="submit" disabled={rename.pending || code.trim() === '' || code.trim() === p.code}>
          Rename
        </button>
      </div>
      {rename.error && rename.error.code !== 'VALIDATION' && (
        <ErrorNotice error={rename.error} title="Not renamed" />
      )}
      {saved && !rename.error && (
        <p role="status" className="ok-text">
          Renamed to {p.code}.
        </p>
      )}
    </form>
  );
};

const LinkAccount = ({ p }: { p: ParticipantRow }) => {
  const [id, setId] = useState('');
  const link = useAction('participants.linkAccount');
  return (
    <form
      className="form inline-form"
      aria-label="Link an existing account"
      onSubmit={(e) => {
        e.preventDefault();
        void link.run({ participantId: p.id, accountId: id.trim() });
      }}
    >
      <TextField
        label="Existing account id"
        value={id}
        onChange={(e) => setId(e.target.value)}
        placeholder="3f2b1c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d"
        spellCheck={false}
        autoComplete="off"
        className="mono"
        error={fieldMessage(link.error)}
        hint="For an account created elsewhere (another tool, an earlier workstation). Its UUID, as the service gave it. No request is sent."
      />
      <div className="row">
        <button type="submit" disabled={link.pending || id.trim() === ''}>
          Link account
        </button>
      </div>
      {link.error && link.error.code !== 'VALIDATION' && (
        <ErrorNotice error={link.error} title="The account was not linked" />
      )}
    </form>
  );
};

const Notes = ({ p }: { p: ParticipantRow }) => {
  const [notes, setNotes] = useState(p.notes);
  const save = useAction('participants.setNotes');
  return (
    <form
      className="form"
      aria-label="Notes"
      onSubmit={(e) => {
        e.preventDefault();
        void save.run({ participantId: p.id, notes });
      }}
    >
      <div className="field">
        <label htmlFor="participant-notes">Notes</label>
        <textarea
          id="participant-notes"
          rows={3}
          maxLength={2000}
          value={notes}
          onChange={(e) => setNotes(e.target.value)}
          aria-describedby="participant-notes-hint"
        />
        <p id="participant-notes-hint" className="hint">
          For the study team only (e.g. “changed microphone in week 4”). Not exported with results; no names
          or health data.
        </p>
      </div>
      <div className="row">
        <button type="submit" disabled={save.pending || notes === p.notes}>
          Save notes
        </button>
        {save.value && notes === p.notes && (
          <span role="status" className="ok-text">
            Saved.
          </span>
        )}
      </div>
      <ErrorNotice error={save.error} title="Notes not saved" />
    </form>
  );
};

export const ParticipantDetails = ({
  p,
  accountCreatedAt,
}: {
  p: ParticipantRow;
  accountCreatedAt?: string | null;
}) => (
  <div className="details-grid">
    <Rename key={`r-${p.code}`} p={p} />
    {p.accountId ? (
      <div>
        <p className="field-label">Service account</p>
        <p>
          <code>{p.accountId}</code>
        </p>
        <p className="hint">
          One account per participant: their recordings go to this account.
          {accountCreatedAt ? ` Linked ${fmtDateTime(accountCreatedAt)}.` : ''}
        </p>
      </div>
    ) : (
      <div>
        <Notice tone="warn">
          No service account yet: this participant’s files wait until there is one. Create it with “Create
          missing accounts” on the participants list, or link an existing one.
        </Notice>
        <LinkAccount p={p} />
      </div>
    )}
    <Notes key={`n-${p.notes}`} p={p} />
  </div>
);
