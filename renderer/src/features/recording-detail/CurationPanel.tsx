/**
 * Curation on the recording page: exclude from analysis with a reason and restore, reassign
 * to another participant or session, delete a recording that was never sent, and undo; each asks first
 * in plain words and each is kept with who, when and why (the history below, and the audit log).
 */
import { useState } from 'react';
import type { RecordingDetail } from '../../../../shared/contract/recordings.contract';
import type { CurationDone } from '../../../../shared/curation';
import type { AppError } from '../../../../shared/rpc';
import { UPLOAD_STATES_NEVER_SENT, UPLOAD_STATES_SENT } from '../../../../shared/states';
import { Badge } from '../../components/Badges';
import { ErrorNotice, Notice } from '../../components/Feedback';
import { TextField } from '../../components/Form';
import { Confirm, CurationActsTable, participantIdByCode, ReasonField } from '../../components/Curation';
import { Section } from '../../components/Page';
import { useAction, useCall, useRpc } from '../../lib/api';
import { fmtDateTime } from '../../lib/format';

const NEVER_SENT = new Set<string>(UPLOAD_STATES_NEVER_SENT);
const SENT = new Set<string>(UPLOAD_STATES_SENT);

type Step = 'exclude' | 'restore' | 'reassign' | 'delete' | 'send' | null;

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
  const rpc = useRpc();
  const state = useCall('curation.recording', { recordingId: r.id });
  const exclude = useAction('curation.excludeRecording');
  const restore = useAction('curation.restoreRecording');
  const reassign = useAction('curation.reassignRecording');
  const del = useAction('curation.deleteRecording');
  const undo = useAction('curation.undoAct');
  const send = useAction('curation.sendRecordingAnyway');
  const [step, setStep] = useState<Step>(null);
  const [reason, setReason] = useState('');
  const [code, setCode] = useState(r.participantCode);
  const [session, setSession] = useState(r.session ?? '');
  const [lookupError, setLookupError] = useState<string | null>(null);
  const [done, setDone] = useState<{ text: string; act: CurationDone } | null>(null);
  const [error, setError] = useState<AppError | null>(null);

  const excluded = state.data?.excluded ?? null;
  const sent = SENT.has(r.uploadState) || d.service !== null;
  const close = () => {
    setStep(null);
    setReason('');
    setLookupError(null);
  };
  const after = (
    text: string,
    res: { ok: true; value: CurationDone } | { ok: false; error: AppError | null },
  ) => {
    if (res.ok) {
      setDone({ text, act: res.value });
      setError(null);
      close();
    } else setError(res.error);
  };

  const findParticipant = async (): Promise<number | null> => {
    const wanted = code.trim();
    if (wanted === r.participantCode) return r.participantId;
    const hit = await participantIdByCode(rpc, studyId, wanted);
    if (hit === null) {
      setLookupError(`There is no participant ${wanted} in this study.`);
      return null;
    }
    return hit;
  };

  return (
    <Section title="Curation">
      {excluded && (
        <Notice tone="warn" title="Excluded from analysis">
          <p>
            {excluded.reason ?? 'No reason given.'} ({fmtDateTime(excluded.at)}). It stays in exports, marked
            “excluded”, and does not count as {r.participantCode}’s latest recording, nor in baselines.
          </p>
        </Notice>
      )}
      {state.data && state.data.provenance.length > 0 && (
        <ul className="findings" aria-label="Provenance notes">
          {state.data.provenance.map((n, i) => (
            <li key={i}>
              <Badge tone="info">Provenance</Badge> {n.note}{' '}
              <span className="muted">({fmtDateTime(n.at)})</span>
            </li>
          ))}
        </ul>
      )}
      {done && (
        <Notice tone={done.act.warning ? 'warn' : 'ok'} title={done.text}>
          {done.act.warning && <p>{done.act.warning}</p>}
          <div className="row">
            <button
              type="button"
              disabled={undo.pending}
              onClick={async () => {
                const res = await undo.run({ actId: done.act.act });
                if (res.ok) setDone(null);
                else setError(res.error);
              }}
            >
              Undo
            </button>
          </div>
        </Notice>
      )}

      {step === null && (
        <div className="row">
          {excluded ? (
            <button type="button" onClick={() => setStep('restore')}>
              Restore to analysis…
            </button>
          ) : (
            <button type="button" onClick={() => setStep('exclude')}>
              Exclude from analysis…
            </button>
          )}
          <button type="button" disabled={r.uploadState === 'uploading'} onClick={() => setStep('reassign')}>
            Reassign…
          </button>
          {r.uploadState === 'refused_locally' && (
            <button type="button" onClick={() => setStep('send')}>
              Send anyway…
            </button>
          )}
          {NEVER_SENT.has(r.uploadState) && d.service === null && (
            <button type="button" className="danger" onClick={() => setStep('delete')}>
              Delete (never sent)…
            </button>
          )}
        </div>
      )}

      {step === 'exclude' && (
        <Confirm
          title="Exclude this recording from analysis?"
          yes="Exclude"
          pending={exclude.pending}
          onNo={close}
          onYes={async () =>
            after('Recording excluded from analysis', await exclude.run({ recordingId: r.id, reason }))
          }
        >
          <p>
            It stays in the study and in exports, marked “excluded” with your reason. It no longer counts as{' '}
            {r.participantCode}’s latest recording, nor in baselines and the timeline. You can restore it at
            any time.
          </p>
          <ReasonField
            label="Reason (required; it goes into the exports)"
            value={reason}
            onChange={setReason}
            required={true}
            error={null}
          />
        </Confirm>
      )}
      {step === 'restore' && (
        <Confirm
          title="Bring this recording back into analysis?"
          yes="Restore"
          pending={restore.pending}
          onNo={close}
          onYes={async () =>
            after(
              'Recording restored to analysis',
              await restore.run({ recordingId: r.id, ...(reason.trim() ? { reason } : {}) }),
            )
          }
        >
          <ReasonField value={reason} onChange={setReason} required={false} error={null} />
        </Confirm>
      )}
      {step === 'reassign' && (
        <Confirm
          title="File this recording under another participant or session?"
          yes="Reassign"
          pending={reassign.pending}
          onNo={close}
          onYes={async () => {
            const participantId = await findParticipant();
            if (participantId === null) return;
            const s = session.trim();
            after(
              'Recording reassigned',
              await reassign.run({
                recordingId: r.id,
                ...(participantId !== r.participantId ? { participantId } : {}),
                ...(s !== (r.session ?? '') ? { session: s === '' ? null : s } : {}),
                ...(reason.trim() ? { reason } : {}),
              }),
            );
          }}
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
            value={code}
            onChange={(e) => setCode(e.target.value)}
            error={lookupError}
            autoComplete="off"
          />
          <TextField
            label="Session label (empty: none)"
            value={session}
            onChange={(e) => setSession(e.target.value)}
            autoComplete="off"
          />
          <ReasonField value={reason} onChange={setReason} required={false} error={null} />
        </Confirm>
      )}
      {step === 'send' && (
        <Confirm
          title="Send this refused file to the service anyway?"
          yes="Send anyway"
          pending={send.pending}
          onNo={close}
          onYes={async () => after('Queued to be sent anyway', await send.run({ recordingId: r.id, reason }))}
        >
          <p>
            Only where the refusal was a judgement (the local speech estimate, a borderline amount of speech):
            the service then decides, and a refusal by the service costs no credit. Where the file breaks the
            service’s own limits (size, duration, format) Voicescope says so and does not send it.
          </p>
          <ReasonField value={reason} onChange={setReason} required={true} error={null} />
        </Confirm>
      )}
      {step === 'delete' && (
        <Confirm
          title="Delete this recording from the study?"
          yes="Delete"
          danger
          pending={del.pending}
          onNo={close}
          onYes={async () => {
            const res = await del.run({ recordingId: r.id, ...(reason.trim() ? { reason } : {}) });
            if (res.ok) onDeleted(res.value);
            else setError(res.error);
          }}
        >
          <p>
            Nothing of it was sent to the service. Its record goes from the study; your original file is not
            touched. You can undo this straight afterwards.
          </p>
          <ReasonField value={reason} onChange={setReason} required={false} error={null} />
        </Confirm>
      )}
      <ErrorNotice error={error} />

      {state.data?.acts && (
        <CurationActsTable
          acts={state.data?.acts}
          caption="What was done to this recording, newest first (also in the audit log)"
          pending={undo.pending}
          onUndo={async (actId) => {
            const res = await undo.run({ actId });
            if (res.ok) setDone(null);
            setError(res.ok ? null : res.error);
          }}
        />
      )}
    </Section>
  );
};
