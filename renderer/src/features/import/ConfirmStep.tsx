/**
 * Step 3 of the import: a label, what it will cost against the service's usage (uploads planned and
 * remaining, buckets it empties, files that would wait), the service accounts new participants need
 * (one request each: the researcher decides here), then commit, accounts, credit check and start,
 * each step said as it happens; the batch monitor follows.
 */
import { useState } from 'react';
import { Link } from 'wouter';
import type { Input, Method, Output } from '../../../../shared/contract';
import { emptiedInWords } from '../../../../shared/credits';
import type { PlanSummary } from '../../../../shared/contract/imports.contract';
import type { AppError } from '../../../../shared/rpc';
import { Badge, SimulatedBadge } from '../../components/Badges';
import { ErrorNotice, Loading, Notice } from '../../components/Feedback';
import { Checkbox, TextField } from '../../components/Form';
import { Stat } from '../../components/Page';
import { useCall, useRefreshAfter, useRpc } from '../../lib/api';
import { agree, fmtInt, plural } from '../../lib/format';
import { paths } from '../../app/paths';

type Step = 'commit' | 'accounts' | 'credits' | 'start';
const STEP_LABEL: Record<Step, string> = {
  commit: 'Importing the files (converted copies are written now)',
  accounts: 'Creating service accounts, one request each',
  credits: 'Reading the credits left',
  start: 'Starting the batch',
};

interface Outcome {
  batchId: number | null;
  committed: Output<'imports.commit'> | null;
  accounts: Output<'participants.createAccounts'> | null;
  failed: { step: Step; error: AppError } | null;
  started: boolean;
}

const Estimate = ({ planId, extra, simulated }: { planId: string; extra: number; simulated: boolean }) => {
  const q = useCall('imports.creditEstimate', { planId }, { staleTime: 0 });
  if (q.error)
    return (
      <ErrorNotice
        error={q.error.appError}
        title="The credits left could not be read"
        onRetry={() => void q.refetch()}
      />
    );
  if (!q.data) return <Loading label="Asking the service how many uploads are left…" />;
  const e = q.data;
  const planned = e.uploadsPlanned + extra;
  const shortBy = Math.max(0, planned - e.uploadsRemaining);
  return (
    <div className="estimate">
      <div className="stats">
        <Stat label="Uploads this batch needs" value={fmtInt(planned)} />
        <Stat
          label="Uploads left on the service"
          value={
            <>
              {fmtInt(e.uploadsRemaining)} {simulated && <SimulatedBadge />}
            </>
          }
        />
        <Stat
          label="Files that would wait for credits"
          value={fmtInt(shortBy)}
          {...(shortBy > 0 ? { tone: 'bad' as const } : {})}
        />
      </div>
      <p>
        This batch needs {plural(planned, 'upload')}
        {extra > 0 ? ` (${plural(extra, 'duplicate')} you chose to send included)` : ''} of the{' '}
        {fmtInt(e.uploadsRemaining)} left
        {shortBy > 0
          ? `; ${plural(shortBy, 'file')} would wait in the queue until credits are added (nothing is charged for them meanwhile).`
          : '.'}
      </p>
      {e.emptiedBuckets.length > 0 && (
        <Notice tone="warn">
          Its {plural(planned, 'upload')} empty {emptiedInWords(e.emptiedBuckets, e.emptiedHold)}. Credits are
          used in this order: trial, included, purchased.
        </Notice>
      )}
      <p className="muted small">
        One credit per accepted upload is assumed (the service's specification does not say). A refused upload
        costs nothing.
      </p>
    </div>
  );
};

export const ConfirmStep = ({
  studyId,
  summary,
  insist,
  borderline: chosenBorderline,
  defaultLabel,
  simulated,
  onBack,
  onRepreview,
  onDone,
}: {
  studyId: number;
  summary: PlanSummary;
  insist: ReadonlySet<string>;
  /** Borderline files chosen one by one in the preview. */
  borderline: ReadonlySet<string>;
  defaultLabel: string;
  simulated: boolean;
  onBack: () => void;
  onRepreview: () => void;
  onDone: (batchId: number) => void;
}) => {
  const rpc = useRpc();
  const refreshAfter = useRefreshAfter();
  const [label, setLabel] = useState(defaultLabel);
  const [createAccounts, setCreateAccounts] = useState(true);
  const [running, setRunning] = useState<Step | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const borderline = summary.counts.borderline ?? 0;
  const [sendBorderline, setSendBorderline] = useState(false);
  const sending =
    (summary.counts.upload ?? 0) +
    (summary.counts.convert_and_upload ?? 0) +
    insist.size +
    (sendBorderline ? borderline : chosenBorderline.size);
  const converting = summary.counts.convert_and_upload ?? 0;
  // Nothing to send: no account to create, nothing to cost and nothing to start.
  const needAccounts =
    sending === 0 ? [] : [...new Set([...summary.newParticipants, ...summary.participantsWithoutAccount])];

  const go = async (start: boolean) => {
    const o: Outcome = { batchId: null, committed: null, accounts: null, failed: null, started: false };
    // The calls made, so that what they affect is refreshed once at the end, whether or not all succeeded.
    const called = new Set<Method>();
    const call = <M extends Method>(method: M, input: Input<M>) => {
      called.add(method);
      return rpc.call(method, input);
    };
    const finish = () => {
      setRunning(null);
      setOutcome({ ...o });
      refreshAfter(...called);
    };
    setOutcome(null);
    setRunning('commit');
    const c = await call('imports.commit', {
      planId: summary.planId,
      insistOnDuplicates: [...insist],
      ...(sendBorderline
        ? { sendBorderline: true as const }
        : chosenBorderline.size
          ? { sendBorderline: [...chosenBorderline] }
          : {}),
      label: label.trim(),
      ...(start ? { start: true } : {}),
    });
    if (!c.ok) {
      o.failed = { step: 'commit', error: c.error };
      return finish();
    }
    o.committed = c.value;
    o.batchId = c.value.batchId;
    if (createAccounts && needAccounts.length > 0) {
      setRunning('accounts');
      const a = await call('participants.createAccounts', { studyId, codes: needAccounts });
      if (!a.ok) {
        o.failed = { step: 'accounts', error: a.error };
        return finish();
      }
      o.accounts = a.value;
    }
    if (start) {
      setRunning('credits');
      const cr = await call('batches.credits', { batchId: o.batchId });
      if (!cr.ok) {
        o.failed = { step: 'credits', error: cr.error };
        return finish();
      }
      setRunning('start');
      const s = await call('batches.start', { batchId: o.batchId });
      if (!s.ok) {
        o.failed = { step: 'start', error: s.error };
        return finish();
      }
      o.started = true;
    }
    finish();
    const clean = o.committed.conversionFailures.length === 0 && (o.accounts?.failed.length ?? 0) === 0;
    if (clean) onDone(o.batchId);
  };

  if (running) {
    return (
      <div className="import-running" role="status" aria-live="polite">
        <ol className="run-steps">
          {(
            [
              'commit',
              ...(createAccounts && needAccounts.length ? ['accounts' as const] : []),
              'credits',
              'start',
            ] as Step[]
          ).map((s) => (
            <li key={s} aria-current={s === running ? 'step' : undefined}>
              {s === running ? <Loading label={`${STEP_LABEL[s]}…`} /> : STEP_LABEL[s]}
            </li>
          ))}
        </ol>
      </div>
    );
  }

  if (outcome) {
    const batchLink = outcome.batchId !== null ? paths.study(studyId).batch(outcome.batchId) : null;
    return (
      <div className="import-outcome">
        {outcome.failed && (
          <ErrorNotice
            error={outcome.failed.error}
            title={
              outcome.failed.step === 'commit'
                ? 'Nothing was imported'
                : `Imported, but the step “${STEP_LABEL[outcome.failed.step]}” failed`
            }
          />
        )}
        {outcome.committed && (
          <Notice
            tone={outcome.failed ? 'warn' : 'ok'}
            title={`Batch created: ${plural(outcome.committed.recordings, 'file')}`}
          >
            <p>
              {outcome.started
                ? 'Sending has started.'
                : 'It has not been started; start it from the batch page when you are ready.'}
            </p>
          </Notice>
        )}
        {outcome.committed && outcome.committed.conversionFailures.length > 0 && (
          <Notice
            tone="warn"
            title={`${plural(outcome.committed.conversionFailures.length, 'file')} could not be converted and will not be sent`}
          >
            <ul className="plain-list">
              {outcome.committed.conversionFailures.map((f) => (
                <li key={f.path}>
                  <code>{f.path}</code>: {f.reason}
                </li>
              ))}
            </ul>
          </Notice>
        )}
        {outcome.accounts && outcome.accounts.failed.length > 0 && (
          <Notice
            tone="warn"
            title={`${plural(outcome.accounts.failed.length, 'account')} could not be created; those participants' files wait`}
          >
            <ul className="plain-list">
              {outcome.accounts.failed.map((f) => (
                <li key={f.code}>
                  <strong>{f.code}</strong>: {f.summary} {f.action}
                </li>
              ))}
            </ul>
            <p>Create them later from the Participants page; their files are then sent.</p>
          </Notice>
        )}
        <div className="row wizard-nav">
          {batchLink && (
            <Link className="button primary" href={batchLink}>
              Open the batch monitor
            </Link>
          )}
          {outcome.failed?.step === 'commit' && (
            <button type="button" className="primary" onClick={onRepreview}>
              Preview again
            </button>
          )}
        </div>
      </div>
    );
  }

  return (
    <div className="import-confirm form">
      <TextField
        label="Batch label"
        value={label}
        maxLength={200}
        onChange={(e) => setLabel(e.target.value)}
        hint="For your own overview, e.g. “Week 12, site B”."
      />

      {sending > 0 && (
        <section aria-labelledby="cost-h" className="subsection">
          <h3 id="cost-h">What it costs</h3>
          <Estimate planId={summary.planId} extra={insist.size} simulated={simulated} />
        </section>
      )}

      {needAccounts.length > 0 && (
        <section aria-labelledby="accounts-h" className="subsection">
          <h3 id="accounts-h">Service accounts</h3>
          <p>
            {plural(needAccounts.length, 'participant')} of this import{' '}
            {agree(needAccounts.length, 'has', 'have')} no service account yet:{' '}
            {needAccounts.slice(0, 30).join(', ')}
            {needAccounts.length > 30 ? ` and ${needAccounts.length - 30} more` : ''}.
          </p>
          <Checkbox
            label={`Create ${plural(needAccounts.length, 'service account')} now`}
            checked={createAccounts}
            onChange={setCreateAccounts}
            hint={`Voicescope sends one request to the service per participant (${plural(needAccounts.length, 'request')}). Without an account, a participant's files wait (“Waiting for account”) until you create it on the Participants page.`}
          />
        </section>
      )}

      <section aria-labelledby="what-h" className="subsection">
        <h3 id="what-h">What happens</h3>
        <ul className="plain-list">
          <li>
            <Badge tone="ok">To be sent</Badge> {plural(sending, 'file')}
            {converting
              ? `, ${plural(converting, 'converted copy', 'converted copies')} among them (written to Voicescope's workspace now)`
              : ''}
            {insist.size ? `, including ${plural(insist.size, 'duplicate')} you chose to send` : ''}.
          </li>
          {borderline > 0 && (
            <li>
              <Badge tone="warn">Borderline</Badge> {plural(borderline, 'file')} with about 30 s of speech,
              too close to the minimum for the local estimate to tell.{' '}
              <label>
                <input
                  type="checkbox"
                  checked={sendBorderline}
                  onChange={(e) => setSendBorderline(e.target.checked)}
                />{' '}
                Send all of them: the service decides (a refusal costs no credit)
                {chosenBorderline.size > 0 && !sendBorderline
                  ? `; otherwise the ${plural(chosenBorderline.size, 'file')} you ticked in the preview`
                  : ''}
              </label>
            </li>
          )}
          {(summary.counts.refused ?? 0) + (summary.counts.duplicate ?? 0) - insist.size > 0 && (
            <li>
              <Badge tone="muted">Kept, not sent</Badge>{' '}
              {plural((summary.counts.refused ?? 0) + (summary.counts.duplicate ?? 0) - insist.size, 'file')}{' '}
              refused or held as duplicates, listed in the batch with their reasons.
            </li>
          )}
          {(summary.counts.unassigned ?? 0) > 0 && (
            <li>
              <Badge tone="warn">Not imported</Badge> {plural(summary.counts.unassigned ?? 0, 'file')} without
              a participant.
            </li>
          )}
        </ul>
      </section>

      {sending === 0 && (
        <Notice tone="warn">
          No file of this import can be sent: nothing is sent, no service account is created and no credit is
          used. You can still import it, to keep the refused files and their reasons in the study.
        </Notice>
      )}
      <div className="row wizard-nav">
        <button type="button" onClick={onBack}>
          Back to the preview
        </button>
        {sending > 0 && (
          <button type="button" className="primary" onClick={() => void go(true)}>
            Import and start sending
            {createAccounts && needAccounts.length
              ? ` (creates ${plural(needAccounts.length, 'account')})`
              : ''}
          </button>
        )}
        <button type="button" onClick={() => void go(false)}>
          {sending > 0 ? 'Import without starting' : 'Import the refused files, without sending'}
        </button>
      </div>
    </div>
  );
};
