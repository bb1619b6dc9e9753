/**
 * The confirm step's run: commit, service accounts, credit check and start, each said as it happens,
 * stopping at the first step that fails; then what came of it (the batch, files that could not be
 * converted, accounts that could not be created) with the way on.
 */
import { useState } from 'react';
import { Link } from 'wouter';
import type { Input, Method, Output } from '../../../../shared/contract';
import type { AppError } from '../../../../shared/rpc';
import { ErrorNotice, Loading, Notice } from '../../components/Feedback';
import { useRefreshAfter, useRpc } from '../../lib/api';
import { plural } from '../../lib/format';
import { paths } from '../../app/paths';
import { commitRequest, RUN_STEP_LABEL, type RunStep } from './confirm-plan';

interface Outcome {
  batchId: number | null;
  committed: Output<'imports.commit'> | null;
  accounts: Output<'participants.createAccounts'> | null;
  failed: { step: RunStep; error: AppError } | null;
  started: boolean;
}

export interface RunRequest {
  studyId: number;
  commit: Omit<Parameters<typeof commitRequest>[0], 'start'>;
  /** The participants whose service accounts are created; empty: none. */
  accounts: readonly string[];
  /** Called with the batch when everything went through cleanly. */
  onDone: (batchId: number) => void;
}

/** Nothing to report beside the batch: every file converted and every account created. */
const clean = (o: Outcome) =>
  (o.committed?.conversionFailures.length ?? 0) === 0 && (o.accounts?.failed.length ?? 0) === 0;

/**
 * Runs the steps, showing the one under way (`running`); `outcome` is what came of the last run. What
 * the calls made affect is refreshed once at the end, whether or not all succeeded.
 */
export const useImportRun = ({ studyId, commit, accounts, onDone }: RunRequest) => {
  const rpc = useRpc();
  const refreshAfter = useRefreshAfter();
  const [running, setRunning] = useState<RunStep | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const go = async (start: boolean) => {
    const o: Outcome = { batchId: null, committed: null, accounts: null, failed: null, started: false };
    const called = new Set<Method>();
    /** One step's call, shown as running; its failure is kept in the outcome. */
    const step = async <M extends Method>(s: RunStep, method: M, input: Input<M>) => {
      setRunning(s);
      called.add(method);
      const r = await rpc.call(method, input);
      if (!r.ok) o.failed = { step: s, error: r.error };
      return r;
    };
    const steps = async () => {
      const c = await step('commit', 'imports.commit', commitRequest({ ...commit, start }));
      if (!c.ok) return;
      o.committed = c.value;
      o.batchId = c.value.batchId;
      if (accounts.length > 0) {
        const a = await step('accounts', 'participants.createAccounts', { studyId, codes: [...accounts] });
        if (!a.ok) return;
        o.accounts = a.value;
      }
      if (!start) return;
      if (!(await step('credits', 'batches.credits', { batchId: o.batchId })).ok) return;
      if (!(await step('start', 'batches.start', { batchId: o.batchId })).ok) return;
      o.started = true;
    };

    setOutcome(null);
    await steps();
    setRunning(null);
    setOutcome({ ...o });
    refreshAfter(...called);
    if (o.failed === null && o.batchId !== null && clean(o)) onDone(o.batchId);
  };
  return { running, outcome, go };
};

export const RunningSteps = ({ steps, running }: { steps: readonly RunStep[]; running: RunStep }) => (
  <div className="import-running" role="status" aria-live="polite">
    <ol className="run-steps">
      {steps.map((s) => (
        <li key={s} aria-current={s === running ? 'step' : undefined}>
          {s === running ? <Loading label={`${RUN_STEP_LABEL[s]}…`} /> : RUN_STEP_LABEL[s]}
        </li>
      ))}
    </ol>
  </div>
);

const ConversionFailures = ({ failures }: { failures: Output<'imports.commit'>['conversionFailures'] }) =>
  failures.length > 0 && (
    <Notice
      tone="warn"
      title={`${plural(failures.length, 'file')} could not be converted and will not be sent`}
    >
      <ul className="plain-list">
        {failures.map((f) => (
          <li key={f.path}>
            <code>{f.path}</code>: {f.reason}
          </li>
        ))}
      </ul>
    </Notice>
  );

const AccountFailures = ({ failed }: { failed: Output<'participants.createAccounts'>['failed'] }) =>
  failed.length > 0 && (
    <Notice
      tone="warn"
      title={`${plural(failed.length, 'account')} could not be created; those participants' files wait`}
    >
      <ul className="plain-list">
        {failed.map((f) => (
          <li key={f.code}>
            <strong>{f.code}</strong>: {f.summary} {f.action}
          </li>
        ))}
      </ul>
      <p>Create them later from the Participants page; their files are then sent.</p>
    </Notice>
  );

export const ImportOutcome = ({
  outcome,
  studyId,
  onRepreview,
}: {
  outcome: Outcome;
  studyId: number;
  onRepreview: () => void;
}) => {
  const batchLink = outcome.batchId !== null ? paths.study(studyId).batch(outcome.batchId) : null;
  return (
    <div className="import-outcome">
      {outcome.failed && (
        <ErrorNotice
          error={outcome.failed.error}
          title={
            outcome.failed.step === 'commit'
              ? 'Nothing was imported'
              : `Imported, but the step “${RUN_STEP_LABEL[outcome.failed.step]}” failed`
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
      {outcome.committed && <ConversionFailures failures={outcome.committed.conversionFailures} />}
      {outcome.accounts && <AccountFailures failed={outcome.accounts.failed} />}
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
};
