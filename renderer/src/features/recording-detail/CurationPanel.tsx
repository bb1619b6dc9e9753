/**
 * Curation on the recording page: exclude from analysis with a reason and restore, reassign
 * to another participant or session, delete a recording that was never sent, and undo; each asks first
 * in plain words and each is kept with who, when and why (the history below, and the audit log).
 */
import { useState } from 'react';
import type { RecordingDetail } from '../../../../shared/contract/recordings.contract';
import type { CurationDone } from '../../../../shared/curation';
import type { AppError } from '../../../../shared/rpc';
import { Badge } from '../../components/Badges';
import { ErrorNotice, Notice } from '../../components/Feedback';
import { TextField } from '../../components/Form';
import { Confirm, CurationActsTable, participantIdByCode, ReasonField } from '../../components/Curation';
import { Section } from '../../components/Page';
import { useAction, useCall, useRpc } from '../../lib/api';
import { fmtDateTime } from '../../lib/format';
import {
  curationOffers,
  optionalReason,
  reassignRequest,
  wasSent,
  type CurationStep,
} from './curation-requests';

type Answer = { ok: true; value: CurationDone } | { ok: false; error: AppError | null };

/**
 * The panel's state: the dialog open and the reason typed in it, what was done last (to undo) and the
 * last error. `after` closes the dialog on success and keeps the dialog open with the error otherwise.
 */
const useCurationFlow = () => {
  const [step, setStep] = useState<CurationStep | null>(null);
  const [reason, setReason] = useState('');
  const [done, setDone] = useState<{ text: string; act: CurationDone } | null>(null);
  const [error, setError] = useState<AppError | null>(null);
  const close = () => {
    setStep(null);
    setReason('');
  };
  const after = (text: string, res: Answer) => {
    if (res.ok) {
      setDone({ text, act: res.value });
      setError(null);
      close();
    } else setError(res.error);
  };
  return { step, open: setStep, reason, setReason, close, after, done, setDone, error, setError };
};
type CurationFlow = ReturnType<typeof useCurationFlow>;

/** What a dialog is given: the recording, and the flow it reports to. */
interface DialogProps {
  r: RecordingDetail['row'];
  flow: CurationFlow;
}

const Excluded = ({ excluded, code }: { excluded: { reason: string | null; at: string }; code: string }) => (
  <Notice tone="warn" title="Excluded from analysis">
    <p>
      {excluded.reason ?? 'No reason given.'} ({fmtDateTime(excluded.at)}). It stays in exports, marked
      “excluded”, and does not count as {code}’s latest recording, nor in baselines.
    </p>
  </Notice>
);

const ProvenanceNotes = ({ notes }: { notes: readonly { note: string; at: string }[] }) =>
  notes.length > 0 && (
    <ul className="findings" aria-label="Provenance notes">
      {notes.map((n, i) => (
        <li key={i}>
          <Badge tone="info">Provenance</Badge> {n.note} <span className="muted">({fmtDateTime(n.at)})</span>
        </li>
      ))}
    </ul>
  );

/** The acts the recording's state allows, each opening its dialog. */
const ActButtons = ({ d, excluded, flow }: { d: RecordingDetail; excluded: boolean; flow: CurationFlow }) => {
  const offers = curationOffers(d.row.uploadState, d.service !== null, excluded);
  return (
    <div className="row">
      {offers.exclusion === 'restore' ? (
        <button type="button" onClick={() => flow.open('restore')}>
          Restore to analysis…
        </button>
      ) : (
        <button type="button" onClick={() => flow.open('exclude')}>
          Exclude from analysis…
        </button>
      )}
      <button type="button" disabled={!offers.reassign} onClick={() => flow.open('reassign')}>
        Reassign…
      </button>
      {offers.sendAnyway && (
        <button type="button" onClick={() => flow.open('send')}>
          Send anyway…
        </button>
      )}
      {offers.delete && (
        <button type="button" className="danger" onClick={() => flow.open('delete')}>
          Delete (never sent)…
        </button>
      )}
    </div>
  );
};

const ExcludeDialog = ({ r, flow }: DialogProps) => {
  const exclude = useAction('curation.excludeRecording');
  return (
    <Confirm
      title="Exclude this recording from analysis?"
      yes="Exclude"
      pending={exclude.pending}
      onNo={flow.close}
      onYes={async () =>
        flow.after(
          'Recording excluded from analysis',
          await exclude.run({ recordingId: r.id, reason: flow.reason }),
        )
      }
    >
      <p>
        It stays in the study and in exports, marked “excluded” with your reason. It no longer counts as{' '}
        {r.participantCode}’s latest recording, nor in baselines and the timeline. You can restore it at any
        time.
      </p>
      <ReasonField
        label="Reason (required; it goes into the exports)"
        value={flow.reason}
        onChange={flow.setReason}
        required={true}
        error={null}
      />
    </Confirm>
  );
};

const RestoreDialog = ({ r, flow }: DialogProps) => {
  const restore = useAction('curation.restoreRecording');
  return (
    <Confirm
      title="Bring this recording back into analysis?"
      yes="Restore"
      pending={restore.pending}
      onNo={flow.close}
      onYes={async () =>
        flow.after(
          'Recording restored to analysis',
          await restore.run({ recordingId: r.id, ...optionalReason(flow.reason) }),
        )
      }
    >
      <ReasonField value={flow.reason} onChange={flow.setReason} required={false} error={null} />
    </Confirm>
  );
};

/** The participant code and session typed for a reassignment: kept while the page is open. */
const useReassignFields = (r: RecordingDetail['row']) => {
  const [code, setCode] = useState(r.participantCode);
  const [session, setSession] = useState(r.session ?? '');
  return { code, setCode, session, setSession };
};
type ReassignFields = ReturnType<typeof useReassignFields>;

const ReassignDialog = ({
  r,
  flow,
  fields,
  studyId,
  sent,
}: DialogProps & { fields: ReassignFields; studyId: number; sent: boolean }) => {
  const rpc = useRpc();
  const reassign = useAction('curation.reassignRecording');
  const [lookupError, setLookupError] = useState<string | null>(null);
  const findParticipant = async (): Promise<number | null> => {
    const wanted = fields.code.trim();
    if (wanted === r.participantCode) return r.participantId;
    const hit = await participantIdByCode(rpc, studyId, wanted);
    if (hit === null) setLookupError(`There is no participant ${wanted} in this study.`);
    return hit;
  };
  const onYes = async () => {
    const participantId = await findParticipant();
    if (participantId === null) return;
    const request = reassignRequest(r, { participantId, session: fields.session, reason: flow.reason });
    flow.after('Recording reassigned', await reassign.run(request));
  };
  return (
    <Confirm
      title="File this recording under another participant or session?"
      yes="Reassign"
      pending={reassign.pending}
      onNo={flow.close}
      onYes={onYes}
    >
      {sent && (
        <Notice tone="warn">
          <p>
            This recording was sent to the service under {r.participantCode}’s account, and the service
            analysed it there. Moving it here does not change that; the recording’s provenance (and its
            exports) will say so.
          </p>
        </Notice>
      )}
      <TextField
        label="Participant code"
        value={fields.code}
        onChange={(e) => fields.setCode(e.target.value)}
        error={lookupError}
        autoComplete="off"
      />
      <TextField
        label="Session label (empty: none)"
        value={fields.session}
        onChange={(e) => fields.setSession(e.target.value)}
        autoComplete="off"
      />
      <ReasonField value={flow.reason} onChange={flow.setReason} required={false} error={null} />
    </Confirm>
  );
};

const SendAnywayDialog = ({ r, flow }: DialogProps) => {
  const send = useAction('curation.sendRecordingAnyway');
  return (
    <Confirm
      title="Send this refused file to the service anyway?"
      yes="Send anyway"
      pending={send.pending}
      onNo={flow.close}
      onYes={async () =>
        flow.after('Queued to be sent anyway', await send.run({ recordingId: r.id, reason: flow.reason }))
      }
    >
      <p>
        Only where the refusal was a judgement (the local speech estimate, a borderline amount of speech): the
        service then decides, and a refusal by the service costs no credit. Where the file breaks the
        service’s own limits (size, duration, format) Voicescope says so and does not send it.
      </p>
      <ReasonField value={flow.reason} onChange={flow.setReason} required={true} error={null} />
    </Confirm>
  );
};

const DeleteDialog = ({ r, flow, onDeleted }: DialogProps & { onDeleted: (done: CurationDone) => void }) => {
  const del = useAction('curation.deleteRecording');
  return (
    <Confirm
      title="Delete this recording from the study?"
      yes="Delete"
      danger
      pending={del.pending}
      onNo={flow.close}
      onYes={async () => {
        const res = await del.run({ recordingId: r.id, ...optionalReason(flow.reason) });
        if (res.ok) onDeleted(res.value);
        else flow.setError(res.error);
      }}
    >
      <p>
        Nothing of it was sent to the service. Its record goes from the study; your original file is not
        touched. You can undo this straight afterwards.
      </p>
      <ReasonField value={flow.reason} onChange={flow.setReason} required={false} error={null} />
    </Confirm>
  );
};

export const CurationPanel = ({
  d,
  studyId,
  onDeleted,
}: {
  d: RecordingDetail;
  studyId: number;
  onDeleted: (done: CurationDone) => void;
}) => {
  const r = d.row;
  const state = useCall('curation.recording', { recordingId: r.id });
  const undo = useAction('curation.undoAct');
  const flow = useCurationFlow();
  const fields = useReassignFields(r);
  const { done } = flow;
  const excluded = state.data?.excluded ?? null;

  return (
    <Section title="Curation">
      {excluded && <Excluded excluded={excluded} code={r.participantCode} />}
      {state.data && <ProvenanceNotes notes={state.data.provenance} />}
      {done && (
        <Notice tone={done.act.warning ? 'warn' : 'ok'} title={done.text}>
          {done.act.warning && <p>{done.act.warning}</p>}
          <div className="row">
            <button
              type="button"
              disabled={undo.pending}
              onClick={async () => {
                const res = await undo.run({ actId: done.act.act });
                if (res.ok) flow.setDone(null);
                else flow.setError(res.error);
              }}
            >
              Undo
            </button>
          </div>
        </Notice>
      )}

      {flow.step === null && <ActButtons d={d} excluded={excluded !== null} flow={flow} />}
      {flow.step === 'exclude' && <ExcludeDialog r={r} flow={flow} />}
      {flow.step === 'restore' && <RestoreDialog r={r} flow={flow} />}
      {flow.step === 'reassign' && (
        <ReassignDialog
          r={r}
          flow={flow}
          fields={fields}
          studyId={studyId}
          sent={wasSent(r.uploadState, d.service !== null)}
        />
      )}
      {flow.step === 'send' && <SendAnywayDialog r={r} flow={flow} />}
      {flow.step === 'delete' && <DeleteDialog r={r} flow={flow} onDeleted={onDeleted} />}
      <ErrorNotice error={flow.error} />

      {state.data?.acts && (
        <CurationActsTable
          acts={state.data?.acts}
          caption="What was done to this recording, newest first (also in the audit log)"
          pending={undo.pending}
          onUndo={async (actId) => {
            const res = await undo.run({ actId });
            if (res.ok) flow.setDone(null);
            flow.setError(res.ok ? null : res.error);
          }}
        />
      )}
    </Section>
  );
};
