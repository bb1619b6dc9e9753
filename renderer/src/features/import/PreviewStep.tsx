/**
 * Step 2 of the import: what the files would become, read in the main process and paged here. Counts by
 * action (each a filter of the table), manifest errors by line, notices, new participants and those
 * without an account, the conversion switch (switching it previews again), the files that will not be
 * sent with their reasons and what to do, duplicates with "send anyway", and every file in a table.
 */
import { useCallback, useState } from 'react';
import type { PlanSummary } from '../../../../shared/contract/imports.contract';
import type { AppError } from '../../../../shared/rpc';
import type { PlannedAction, PlannedFile } from '../../../../shared/study';
import { Badge } from '../../components/Badges';
import { Empty, ErrorNotice, Loading, Notice } from '../../components/Feedback';
import { Checkbox, SelectField } from '../../components/Form';
import { PagedTable, type Column } from '../../components/PagedTable';
import { fmtBytes, fmtInt, fmtSeconds, plural } from '../../lib/format';
import { fmtCompact } from '../recordings/recording-columns';
import { filesToSend, someCodes } from './confirm-plan';
import {
  ACTION,
  ACTION_ORDER,
  CONVERT_SWITCH_LABEL,
  DATE_SOURCE,
  VERDICT,
  verdictAddsToAction,
} from './import-labels';
import type { ChannelChoice } from './import-choice';
import { channelOptions, FileDetail } from './PlanFileDetail';
import { Borderline, Duplicates, ReasonList } from './PlanFileLists';
import { audioInWords, channelValue, parseChannel, reasonOf } from './plan-file-words';
import { PlanQuality } from './PlanQuality';

// Widths fit a 1280-pixel window beside the sidebar; everything cut here is in the file's details below.
const columns = (insist: ReadonlySet<string>, borderline: ReadonlySet<string>): Column<PlannedFile>[] => [
  {
    key: 'file',
    header: 'File',
    width: 'minmax(8rem, 1.3fr)',
    render: (f) => <span title={f.path}>{f.fileName}</span>,
  },
  {
    key: 'participant',
    header: 'Participant, session',
    width: '7.5rem',
    render: (f) =>
      f.participantCode ? (
        <>
          {f.participantCode}
          {f.session ? <span className="muted"> · {f.session}</span> : null}
        </>
      ) : (
        <span className="muted">none</span>
      ),
  },
  {
    key: 'recorded',
    header: 'Recorded at (from)',
    width: '11.5rem',
    render: (f) => (
      <span title={f.recordedAt ?? undefined}>
        {fmtCompact(f.recordedAt)}{' '}
        <span className="muted small">{f.recordedAtSource ? DATE_SOURCE[f.recordedAtSource] : ''}</span>
      </span>
    ),
  },
  { key: 'audio', header: 'Audio', width: '10rem', render: (f) => audioInWords(f) },
  {
    key: 'speech',
    header: 'Speech',
    width: '4.25rem',
    align: 'right',
    render: (f) => fmtSeconds(f.speechSeconds),
  },
  {
    // The action, the local verdict where it adds something, and the reason, in one column so that a
    // 1280-pixel window shows every column; the details below the table hold everything in full.
    key: 'action',
    header: 'Action, verdict and reason',
    width: 'minmax(12rem, 2.5fr)',
    render: (f) => (
      <span title={reasonOf(f)}>
        {f.action === 'duplicate' && insist.has(f.path) ? (
          <Badge tone="info">Send anyway</Badge>
        ) : f.action === 'borderline' && borderline.has(f.path) ? (
          <Badge tone="info">Send: the service decides</Badge>
        ) : (
          <Badge tone={ACTION[f.action].tone}>{ACTION[f.action].label}</Badge>
        )}{' '}
        {verdictAddsToAction(f.action, f.verdict.status) && (
          <>
            <Badge tone={VERDICT[f.verdict.status].tone}>{VERDICT[f.verdict.status].label}</Badge>{' '}
          </>
        )}
        {f.verdict.findings.length > 0 || f.action === 'duplicate' || f.action === 'unassigned'
          ? reasonOf(f)
          : ''}
      </span>
    ),
  },
];

export const Progress = ({ done, total }: { done: number; total: number }) => (
  <div className="bar" role="status">
    <div className="bar-label">
      <span>Reading files: hashing, checking the audio, looking for duplicates</span>
      <span>
        {fmtInt(done)} of {fmtInt(total)}
      </span>
    </div>
    <progress value={done} max={Math.max(1, total)} aria-label={`Files read: ${done} of ${total}`} />
  </div>
);

/** The counts by action, each a filter of the table below. */
const ActionFilter = ({
  summary,
  action,
  onAction,
}: {
  summary: PlanSummary;
  action: PlannedAction | null;
  onAction: (a: PlannedAction | null) => void;
}) => (
  <div className="action-filter" role="group" aria-label="Show files by action">
    <button type="button" aria-pressed={action === null} onClick={() => onAction(null)}>
      All <span className="count">{fmtInt(summary.totalFiles)}</span>
    </button>
    {ACTION_ORDER.map((a) => (
      <button
        key={a}
        type="button"
        aria-pressed={action === a}
        onClick={() => onAction(a)}
        disabled={(summary.counts[a] ?? 0) === 0}
        title={ACTION[a].explain}
      >
        <Badge tone={ACTION[a].tone}>{ACTION[a].label}</Badge>{' '}
        <span className="count">{fmtInt(summary.counts[a] ?? 0)}</span>
      </button>
    ))}
  </div>
);

const ManifestErrors = ({ errors }: { errors: PlanSummary['manifestErrors'] }) =>
  errors.length > 0 && (
    <Notice
      tone="warn"
      title={`The manifest has ${plural(errors.length, 'problem')}; the other rows are used`}
    >
      <table className="table compact">
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col">Problem</th>
          </tr>
        </thead>
        <tbody>
          {errors.map((m, i) => (
            <tr key={i}>
              <th scope="row">{m.line === 0 ? 'whole file' : m.line}</th>
              <td>{m.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Notice>
  );

const PlanNotices = ({ notices }: { notices: PlanSummary['notices'] }) =>
  notices.length > 0 && (
    <Notice tone="info">
      <ul className="plain-list">
        {notices.map((n) => (
          <li key={n}>{n}</li>
        ))}
      </ul>
    </Notice>
  );

/** Participants the import adds, and those without a service account (the confirm step creates them). */
const NewParticipants = ({ summary }: { summary: PlanSummary }) =>
  (summary.newParticipants.length > 0 || summary.participantsWithoutAccount.length > 0) && (
    <div className="participants-new">
      {summary.newParticipants.length > 0 && (
        <p>
          <strong>New participants ({fmtInt(summary.newParticipants.length)}):</strong>{' '}
          {someCodes(summary.newParticipants, 40)}. Each needs a service account (one request each; you decide
          in the next step).
        </p>
      )}
      {summary.participantsWithoutAccount.length > 0 && (
        <p>
          <strong>Without an account ({fmtInt(summary.participantsWithoutAccount.length)}):</strong>{' '}
          {someCodes(summary.participantsWithoutAccount, 40)}.
        </p>
      )}
    </div>
  );

/** The researcher's decisions about single files: duplicates and borderline files to send, channels. */
interface FileChoices {
  /** Channels chosen for single files; a change previews again. */
  channelByFile: Readonly<Record<string, ChannelChoice>>;
  onFileChannel: (path: string, c: ChannelChoice | null) => void;
  insist: ReadonlySet<string>;
  onInsist: (path: string, v: boolean) => void;
  /** Borderline files the researcher chose to send. */
  borderline: ReadonlySet<string>;
  onBorderline: (path: string, v: boolean) => void;
}

/** What the table shows: the action filtered on, the file opened below it, the rows it holds. */
interface TableView {
  action: PlannedAction | null;
  setAction: (a: PlannedAction | null) => void;
  open: PlannedFile | null;
  onOpen: (f: PlannedFile) => void;
  shown: number | null;
  onTotal: (n: number) => void;
}

/** Every file of the plan in a table (of one action, or all), and the one selected in full below it. */
const PlanFiles = ({
  planId,
  view,
  files,
  pending,
}: {
  planId: string;
  view: TableView;
  files: FileChoices;
  pending: boolean;
}) => {
  const { action, open } = view;
  return (
    <div className="plan-files">
      <h3>{action ? `Files: ${ACTION[action].label}` : 'All files'}</h3>
      <PagedTable
        minWidth="58.5rem"
        method="imports.planFiles"
        input={{ planId, ...(action ? { action } : {}) }}
        columns={columns(files.insist, files.borderline)}
        label={`Files of the preview${action ? `: ${ACTION[action].label}` : ''}. Arrow keys move, Enter shows the details below.`}
        rowKey={(f) => f.path}
        onOpen={view.onOpen}
        onTotal={view.onTotal}
        height={`${Math.min(24, Math.max(12, (view.shown ?? 10) * 2.5 + 0.25))}rem`}
        empty="No file here."
      />
      {open ? (
        <FileDetail
          f={open}
          insisted={files.insist.has(open.path)}
          onInsist={(v) => files.onInsist(open.path, v)}
          borderlineSent={files.borderline.has(open.path)}
          onBorderline={(v) => files.onBorderline(open.path, v)}
          channel={files.channelByFile[open.path] ?? null}
          onChannel={(c) => files.onFileChannel(open.path, c)}
          disabled={pending}
        />
      ) : (
        <p className="muted small">Select a file (click, or Enter) to see everything about it.</p>
      )}
    </div>
  );
};

/** The preview once made: what will be sent, the counts, problems and notices, the lists, the table. */
const Plan = ({
  summary,
  view,
  files,
  pending,
}: {
  summary: PlanSummary;
  view: TableView;
  files: FileChoices;
  pending: boolean;
}) => {
  const sending = filesToSend(summary.counts, files.insist.size, files.borderline.size);
  return (
    <>
      <p>
        {plural(summary.totalFiles, 'file')} ({fmtBytes(summary.totalBytes)}):{' '}
        <strong>{plural(sending, 'file')} will be sent</strong>; nothing is written or sent until you confirm.
      </p>
      <ActionFilter summary={summary} action={view.action} onAction={view.setAction} />
      <ManifestErrors errors={summary.manifestErrors} />
      <PlanNotices notices={summary.notices} />
      <NewParticipants summary={summary} />

      <ReasonList planId={summary.planId} action="refused" title="Refused: never sent" />
      <ReasonList planId={summary.planId} action="unassigned" title="No participant: not imported" />
      <Borderline planId={summary.planId} sent={files.borderline} onSend={files.onBorderline} />
      <Duplicates planId={summary.planId} insist={files.insist} onInsist={files.onInsist} />
      <PlanQuality planId={summary.planId} />

      <PlanFiles planId={summary.planId} view={view} files={files} pending={pending} />
    </>
  );
};

/** The choices that apply to the whole import and make a new preview: conversion and the channel sent. */
const WholeImportChoices = ({
  convert,
  onConvert,
  channel,
  onChannel,
  pending,
}: {
  convert: boolean;
  onConvert: (v: boolean) => void;
  channel: ChannelChoice;
  onChannel: (c: ChannelChoice) => void;
  pending: boolean;
}) => (
  <>
    <Checkbox
      label={CONVERT_SWITCH_LABEL}
      checked={convert}
      onChange={onConvert}
      disabled={pending}
      hint="The original file is never changed. Switching this previews the files again."
    />
    <SelectField
      label="Channel sent from stereo and multichannel files"
      value={channelValue(channel)}
      disabled={pending}
      onChange={(e) => onChannel(parseChannel(e.target.value))}
      hint="Sent as mono when conversion is on; a single file's channel can be chosen in its details. Changing this previews the files again."
    >
      {channelOptions(null)}
    </SelectField>
  </>
);

const NothingFound = ({ manifestErrors }: { manifestErrors: number }) => (
  <Empty title="No recording was found">
    <p>
      Neither the folders and files you chose nor the manifest lead to an audio file (WAV, MP3, MP4/M4A, OGG,
      FLAC, AIFF, CAF or WebM).{manifestErrors ? " The manifest's problems are listed below." : ''}
    </p>
    <p>Go back and choose another folder or manifest.</p>
  </Empty>
);

/**
 * The table's view is kept here, not in the plan below: it stays while the files are previewed again
 * (the plan is not shown meanwhile).
 */
const useTableView = (): TableView => {
  const [action, setAction] = useState<PlannedAction | null>(null);
  const [open, setOpen] = useState<PlannedFile | null>(null);
  const [shown, setShown] = useState<number | null>(null);
  const onTotal = useCallback((n: number) => setShown(n), []);
  const onOpen = useCallback((f: PlannedFile) => setOpen(f), []);
  return { action, setAction, open, onOpen, shown, onTotal };
};

export const PreviewStep = ({
  summary,
  pending,
  error,
  progress,
  convert,
  onConvert,
  channel,
  onChannel,
  onBack,
  onNext,
  onRetry,
  ...files
}: {
  summary: PlanSummary | null;
  pending: boolean;
  error: AppError | null;
  progress: { done: number; total: number } | null;
  convert: boolean;
  onConvert: (v: boolean) => void;
  /** The channel of multichannel files for the whole import; a change previews again. */
  channel: ChannelChoice;
  onChannel: (c: ChannelChoice) => void;
  onBack: () => void;
  onNext: () => void;
  onRetry: () => void;
} & FileChoices) => {
  const view = useTableView();

  if (error && !pending) {
    return (
      <>
        <ErrorNotice error={error} title="The preview could not be made" onRetry={onRetry} />
        <div className="row wizard-nav">
          <button type="button" onClick={onBack}>
            Back to the choices
          </button>
        </div>
      </>
    );
  }
  return (
    <div className="import-preview">
      <WholeImportChoices
        convert={convert}
        onConvert={onConvert}
        channel={channel}
        onChannel={onChannel}
        pending={pending}
      />
      {pending &&
        (progress ? (
          <Progress done={progress.done} total={progress.total} />
        ) : (
          <Loading label="Looking for files…" />
        ))}
      {summary && !pending && summary.totalFiles === 0 && (
        <NothingFound manifestErrors={summary.manifestErrors.length} />
      )}
      {summary && !pending && <Plan summary={summary} view={view} files={files} pending={pending} />}
      <div className="row wizard-nav">
        <button type="button" onClick={onBack} disabled={pending}>
          Back to the choices
        </button>
        <button
          type="button"
          className="primary"
          onClick={onNext}
          disabled={pending || !summary || summary.totalFiles === 0}
        >
          Continue to confirm
        </button>
      </div>
    </div>
  );
};
