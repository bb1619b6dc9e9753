/**
 * Step 3 of the import: a label, on a team study the site of new participants (SiteChoice.tsx), what it
 * will cost against the service's usage (uploads planned and remaining, buckets it empties, files that
 * would wait), the service accounts new participants need (one request each: the researcher decides
 * here), then commit, accounts, credit check and start, each step said as it happens; the batch monitor
 * follows.
 */
import { useState } from 'react';
import { emptiedInWords } from '../../../../shared/credits';
import type { PlanSummary } from '../../../../shared/contract/imports.contract';
import { Badge, SimulatedBadge } from '../../components/Badges';
import { ErrorNotice, Loading, Notice } from '../../components/Feedback';
import { Checkbox, TextField } from '../../components/Form';
import { Stat } from '../../components/Page';
import { useCall } from '../../lib/api';
import { agree, fmtInt, plural } from '../../lib/format';
import { accountsToCreate, filesToSend, keptNotSent, runSteps, someCodes } from './confirm-plan';
import { SiteChoice, useImportSite } from './SiteChoice';
import { ImportOutcome, RunningSteps, useImportRun } from './ImportRun';

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

/** The service accounts new participants need: one request each, created here or later. */
const Accounts = ({
  codes,
  create,
  onCreate,
}: {
  codes: readonly string[];
  create: boolean;
  onCreate: (v: boolean) => void;
}) => (
  <section aria-labelledby="accounts-h" className="subsection">
    <h3 id="accounts-h">Service accounts</h3>
    <p>
      {plural(codes.length, 'participant')} of this import {agree(codes.length, 'has', 'have')} no service
      account yet: {someCodes(codes, 30)}.
    </p>
    <Checkbox
      label={`Create ${plural(codes.length, 'service account')} now`}
      checked={create}
      onChange={onCreate}
      hint={`Voicescope sends one request to the service per participant (${plural(codes.length, 'request')}). Without an account, a participant's files wait (“Waiting for account”) until you create it on the Participants page.`}
    />
  </section>
);

/** What becomes of the files: sent, borderline (all of them sent at a tick), kept, not imported. */
const WhatHappens = ({
  summary,
  sending,
  insisted,
  chosenBorderline,
  sendBorderline,
  onSendBorderline,
}: {
  summary: PlanSummary;
  sending: number;
  insisted: number;
  chosenBorderline: number;
  sendBorderline: boolean;
  onSendBorderline: (v: boolean) => void;
}) => {
  const converting = summary.counts.convert_and_upload ?? 0;
  const borderline = summary.counts.borderline ?? 0;
  const kept = keptNotSent(summary.counts, insisted);
  return (
    <section aria-labelledby="what-h" className="subsection">
      <h3 id="what-h">What happens</h3>
      <ul className="plain-list">
        <li>
          <Badge tone="ok">To be sent</Badge> {plural(sending, 'file')}
          {converting
            ? `, ${plural(converting, 'converted copy', 'converted copies')} among them (written to Voicescope's workspace now)`
            : ''}
          {insisted ? `, including ${plural(insisted, 'duplicate')} you chose to send` : ''}.
        </li>
        {borderline > 0 && (
          <li>
            <Badge tone="warn">Borderline</Badge> {plural(borderline, 'file')} with about 30 s of speech, too
            close to the minimum for the local estimate to tell.{' '}
            <label>
              <input
                type="checkbox"
                checked={sendBorderline}
                onChange={(e) => onSendBorderline(e.target.checked)}
              />{' '}
              Send all of them: the service decides (a refusal costs no credit)
              {chosenBorderline > 0 && !sendBorderline
                ? `; otherwise the ${plural(chosenBorderline, 'file')} you ticked in the preview`
                : ''}
            </label>
          </li>
        )}
        {kept > 0 && (
          <li>
            <Badge tone="muted">Kept, not sent</Badge> {plural(kept, 'file')} refused or held as duplicates,
            listed in the batch with their reasons.
          </li>
        )}
        {(summary.counts.unassigned ?? 0) > 0 && (
          <li>
            <Badge tone="warn">Not imported</Badge> {plural(summary.counts.unassigned ?? 0, 'file')} without a
            participant.
          </li>
        )}
      </ul>
    </section>
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
  const [label, setLabel] = useState(defaultLabel);
  const [createAccounts, setCreateAccounts] = useState(true);
  const [sendBorderline, setSendBorderline] = useState(false);
  const importSite = useImportSite(studyId, summary.newParticipants.length);
  const { site, missing: siteMissing } = importSite;
  const sending = filesToSend(
    summary.counts,
    insist.size,
    sendBorderline ? (summary.counts.borderline ?? 0) : chosenBorderline.size,
  );
  const needAccounts = accountsToCreate(summary, sending);
  const withAccounts = createAccounts && needAccounts.length > 0;
  const run = useImportRun({
    studyId,
    commit: {
      planId: summary.planId,
      insist,
      sendAllBorderline: sendBorderline,
      chosenBorderline,
      label,
      site,
    },
    accounts: withAccounts ? needAccounts : [],
    onDone,
  });

  if (run.running) return <RunningSteps steps={runSteps(withAccounts)} running={run.running} />;
  if (run.outcome) return <ImportOutcome outcome={run.outcome} studyId={studyId} onRepreview={onRepreview} />;
  return (
    <div className="import-confirm form">
      <TextField
        label="Batch label"
        value={label}
        maxLength={200}
        onChange={(e) => setLabel(e.target.value)}
        hint="For your own overview, e.g. “Week 12, site B”."
      />

      <SiteChoice choice={importSite} newCount={summary.newParticipants.length} />

      {sending > 0 && (
        <section aria-labelledby="cost-h" className="subsection">
          <h3 id="cost-h">What it costs</h3>
          <Estimate planId={summary.planId} extra={insist.size} simulated={simulated} />
        </section>
      )}

      {needAccounts.length > 0 && (
        <Accounts codes={needAccounts} create={createAccounts} onCreate={setCreateAccounts} />
      )}

      <WhatHappens
        summary={summary}
        sending={sending}
        insisted={insist.size}
        chosenBorderline={chosenBorderline.size}
        sendBorderline={sendBorderline}
        onSendBorderline={setSendBorderline}
      />

      {sending === 0 && (
        <Notice tone="warn">
          No file of this import can be sent: nothing is sent, no service account is created and no credit is
          used. You can still import it, to keep the refused files and their reasons in the study.
        </Notice>
      )}
      {siteMissing && importSite.sites.length > 1 && (
        <p className="hint" role="status">
          Choose the site of the new participants to import.
        </p>
      )}
      <div className="row wizard-nav">
        <button type="button" onClick={onBack}>
          Back to the preview
        </button>
        {sending > 0 && (
          <button type="button" className="primary" disabled={siteMissing} onClick={() => void run.go(true)}>
            Import and start sending
            {withAccounts ? ` (creates ${plural(needAccounts.length, 'account')})` : ''}
          </button>
        )}
        <button type="button" disabled={siteMissing} onClick={() => void run.go(false)}>
          {sending > 0 ? 'Import without starting' : 'Import the refused files, without sending'}
        </button>
      </div>
    </div>
  );
};
