/**
 * "A participant entered twice" on the participant page: merge this participant into another
 * after a check that says what would happen (recordings moved, those analysed under this participant's
 * service account, session labels both use, the same audio under both, attributes that disagree), with a
 * required reason; and the participant's curation acts with undo. A participant merged into another says
 * so, with a link to the other and the undo.
 */
import { useState } from 'react';
import { Link } from 'wouter';
import type { MergePreview } from '../../../../shared/curation';
import type { AppError } from '../../../../shared/rpc';
import { ErrorNotice, Notice } from '../../components/Feedback';
import { TextField } from '../../components/Form';
import { Section } from '../../components/Page';
import { useAction, useCall, useRpc } from '../../lib/api';
import { plural } from '../../lib/format';
import { paths } from '../../app/paths';
import { Confirm, CurationActsTable, participantIdByCode, ReasonField } from '../../components/Curation';

const PreviewText = ({ m }: { m: MergePreview }) => (
  <>
    <p>
      {plural(m.recordings, 'recording')} of {m.from.code} move to {m.into.code}, each with its session label.{' '}
      {m.from.code} is kept, marked “merged into {m.into.code}”, and no longer has visits of its own; you can
      undo the merge.
    </p>
    {m.sent > 0 && (
      <Notice tone="warn">
        <p>
          The service analysed {plural(m.sent, 'of these recordings', 'of these recordings')} under{' '}
          {m.from.code}’s account. Merging does not change that; each recording’s provenance (and its exports)
          will say so.
        </p>
      </Notice>
    )}
    {m.duplicates.length > 0 && (
      <Notice tone="warn" title="The same audio is under both participants">
        <ul>
          {m.duplicates.map((d) => (
            <li key={d.from}>
              Recording {d.from} ({m.from.code}) and recording {d.into} ({m.into.code}): exclude or delete the
              extra copy after the merge.
            </li>
          ))}
        </ul>
      </Notice>
    )}
    {m.attributeConflicts.length > 0 && (
      <p>
        Attributes that disagree keep {m.into.code}’s value:{' '}
        {m.attributeConflicts.map((c) => `${c.key} “${c.into}” (not “${c.from}”)`).join(', ')}.
      </p>
    )}
    {m.refusal && (
      <Notice tone="bad" title="This merge cannot be done yet">
        <p>{m.refusal}</p>
      </Notice>
    )}
  </>
);

export const MergeParticipant = ({
  studyId,
  participantId,
  code,
  mergedInto,
}: {
  studyId: number;
  participantId: number;
  code: string;
  mergedInto: { id: number; code: string } | null;
}) => {
  const rpc = useRpc();
  const acts = useCall('curation.participant', { participantId });
  const merge = useAction('curation.mergeParticipants');
  const undo = useAction('curation.undoAct');
  const [open, setOpen] = useState(false);
  const [into, setInto] = useState('');
  const [reason, setReason] = useState('');
  const [preview, setPreview] = useState<MergePreview | null>(null);
  const [lookupError, setLookupError] = useState<string | null>(null);
  const [error, setError] = useState<AppError | null>(null);
  const [warning, setWarning] = useState<string | null>(null);

  const close = () => {
    setOpen(false);
    setPreview(null);
    setReason('');
    setLookupError(null);
  };

  const check = async () => {
    const wanted = into.trim();
    setPreview(null);
    const hit = await participantIdByCode(rpc, studyId, wanted);
    if (hit === null) {
      setLookupError(`There is no participant ${wanted} in this study.`);
      return;
    }
    setLookupError(null);
    const p = await rpc.call('curation.planOfMerge', { fromId: participantId, intoId: hit });
    if (p.ok) setPreview(p.value);
    else setError(p.error);
  };

  return (
    <Section title="Entered twice?">
      {mergedInto && (
        <Notice tone="info" title={`Merged into ${mergedInto.code}`}>
          <p>
            Its recordings are now{' '}
            <Link href={paths.study(studyId).participant(mergedInto.id)}>{mergedInto.code}</Link>
            ’s. Undo the merge below to bring them back.
          </p>
        </Notice>
      )}
      {warning && (
        <Notice tone="warn" title="Merged">
          <p>{warning}</p>
        </Notice>
      )}
      {!mergedInto && !open && (
        <div className="row">
          <button type="button" onClick={() => setOpen(true)}>
            Merge into…
          </button>
          <span className="muted small">When {code} is another participant entered a second time.</span>
        </div>
      )}
      {!mergedInto && open && (
        <Confirm
          title={`Merge ${code} into another participant?`}
          yes={preview ? `Merge into ${preview.into.code}` : 'Check'}
          pending={merge.pending}
          onNo={close}
          onYes={async () => {
            if (!preview || preview.into.code !== into.trim()) return void (await check());
            const res = await merge.run({ fromId: participantId, intoId: preview.into.id, reason });
            if (res.ok) {
              setWarning(res.value.warning);
              setError(null);
              close();
            } else setError(res.error);
          }}
        >
          <TextField
            label="The participant it really is (code)"
            value={into}
            onChange={(e) => {
              setInto(e.target.value);
              setPreview(null);
            }}
            error={lookupError}
            autoComplete="off"
          />
          {preview && <PreviewText m={preview} />}
          {preview && !preview.refusal && (
            <ReasonField value={reason} onChange={setReason} required={true} error={null} />
          )}
        </Confirm>
      )}
      <ErrorNotice error={error} />
      {acts.data && (
        <CurationActsTable
          acts={acts.data}
          caption="What was done to this participant, newest first (also in the audit log)"
          pending={undo.pending}
          onUndo={async (actId) => {
            const res = await undo.run({ actId });
            if (res.ok) setWarning(null);
            setError(res.ok ? null : res.error);
          }}
        />
      )}
    </Section>
  );
};
