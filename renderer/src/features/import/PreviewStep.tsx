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
import { seenElsewhereText } from '../../../../shared/seen-elsewhere';
import { Badge } from '../../components/Badges';
import { Empty, ErrorNotice, Loading, Notice } from '../../components/Feedback';
import { Checkbox, SelectField } from '../../components/Form';
import { PagedTable, type Column } from '../../components/PagedTable';
import { useCall } from '../../lib/api';
import { fmtBytes, fmtDateTime, fmtInt, fmtNumber, fmtSeconds, plural } from '../../lib/format';
import { fmtCompact } from '../recordings/recording-columns';
import { ACTION, ACTION_ORDER, DATE_SOURCE, VERDICT, verdictAddsToAction } from './import-labels';
import { PlanQuality } from './PlanQuality';
import { lastSegment, type ChannelChoice } from './import-choice';

const audio = (f: PlannedFile) => {
  if (!f.format) return '—';
  const ch =
    f.channels === null
      ? ''
      : f.channels === 1
        ? ' mono'
        : f.channels === 2
          ? ' stereo'
          : ` ${f.channels} ch`;
  const rate = f.sampleRateHz === null ? '' : ` ${fmtNumber(f.sampleRateHz / 1000)} kHz`;
  return `${f.format.toUpperCase()}${ch}${rate}, ${fmtSeconds(f.durationSeconds)}`;
};

const reasonOf = (f: PlannedFile): string => {
  if (f.action === 'unassigned') return f.assignmentProblem ?? 'No participant.';
  if (f.action === 'duplicate' && f.seenElsewhere?.length) return seenElsewhereText(f.seenElsewhere);
  if (f.action === 'duplicate' && f.duplicateOf)
    return `Same audio as ${f.duplicateOf.recordingId !== null ? `recording ${f.duplicateOf.recordingId} (${lastSegment(f.duplicateOf.path)})` : lastSegment(f.duplicateOf.path)}.`;
  const refusals = f.verdict.findings.filter((x) => x.severity === 'refuse');
  const shown = refusals.length ? refusals : f.verdict.findings;
  const said = shown.map((x) => x.message).join(' ');
  if (f.action === 'convert_and_upload') return `${said} A mono 16 kHz copy is sent instead.`;
  return said || ACTION[f.action].explain;
};

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
  { key: 'audio', header: 'Audio', width: '10rem', render: (f) => audio(f) },
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

/** The channel choices of a file with `channels` channels (or of the whole import when null). */
const channelOptions = (channels: number | null) => (
  <>
    <option value="auto">The channel with the most speech</option>
    <option value="mix">The mix of all channels</option>
    {Array.from({ length: channels ?? 8 }, (_, i) => (
      <option key={i + 1} value={String(i + 1)}>
        Channel {i + 1}
      </option>
    ))}
  </>
);
const channelValue = (c: ChannelChoice): string => String(c);
const parseChannel = (v: string): ChannelChoice => (v === 'auto' || v === 'mix' ? v : Number(v));

/**
 * Everything about one file of the plan, with what to do; from here a duplicate can be sent anyway, a
 * borderline file sent, and a multichannel file's channel chosen (the file is measured again).
 */
const FileDetail = ({
  f,
  insisted,
  onInsist,
  borderlineSent,
  onBorderline,
  channel,
  onChannel,
  disabled,
}: {
  f: PlannedFile;
  insisted: boolean;
  onInsist: (v: boolean) => void;
  borderlineSent: boolean;
  onBorderline: (v: boolean) => void;
  /** The channel chosen for this file, or null when it follows the import's choice. */
  channel: ChannelChoice | null;
  onChannel: (c: ChannelChoice | null) => void;
  disabled: boolean;
}) => (
  <div className="card plan-detail" aria-live="polite">
    <p className="card-title">
      {f.fileName} <Badge tone={ACTION[f.action].tone}>{ACTION[f.action].label}</Badge>{' '}
      {verdictAddsToAction(f.action, f.verdict.status) && (
        <Badge tone={VERDICT[f.verdict.status].tone}>{VERDICT[f.verdict.status].label}</Badge>
      )}
    </p>
    <p className="small">
      <code className="mono">{f.path}</code> · {fmtBytes(f.sizeBytes)} · {audio(f)} · speech{' '}
      {fmtSeconds(f.speechSeconds)}
    </p>
    <p>{ACTION[f.action].explain}</p>
    <p>
      <strong>Participant:</strong> {f.participantCode ?? 'none'}
      {f.session ? `, session ${f.session}` : ''} · <strong>Recorded at:</strong> {fmtDateTime(f.recordedAt)}
      {f.recordedAtSource ? ` (from the ${DATE_SOURCE[f.recordedAtSource]})` : ''}
    </p>
    {f.assignmentProblem && (
      <p>
        <strong>Participant:</strong> {f.assignmentProblem}
      </p>
    )}
    {f.verdict.findings.length > 0 && (
      <ul className="findings">
        {f.verdict.findings.map((x) =>
          f.verdict.status === 'will_convert' && x.fixedByConversion ? (
            <li key={x.code}>
              <Badge tone="info">Fixed by conversion</Badge> {x.message} Conversion is on: the copy sent is
              mono 16 kHz.
            </li>
          ) : (
            <li key={x.code}>
              <Badge tone={x.severity === 'refuse' ? 'bad' : 'warn'}>
                {x.severity === 'refuse' ? 'Refused' : 'Warning'}
              </Badge>{' '}
              {x.message} <strong>What to do:</strong> {x.action}
            </li>
          ),
        )}
      </ul>
    )}
    {f.seenElsewhere && f.seenElsewhere.length > 0 && (
      <p>
        <strong>Seen elsewhere:</strong> {seenElsewhereText(f.seenElsewhere)}
      </p>
    )}
    {f.duplicateOf && !f.seenElsewhere?.length && (
      <p>
        <strong>Duplicate of:</strong> <code className="mono">{f.duplicateOf.path}</code>
        {f.duplicateOf.recordingId !== null
          ? ` (already in the study as recording ${f.duplicateOf.recordingId})`
          : ' (earlier in this import)'}
      </p>
    )}
    {f.action === 'duplicate' && (
      <Checkbox
        label="Send anyway (it really is a different session)"
        checked={insisted}
        onChange={onInsist}
      />
    )}
    {f.action === 'borderline' && (
      <Checkbox
        label={`Send it: about ${fmtSeconds(f.speechSeconds)} of speech, the service decides (a refusal costs no credit)`}
        checked={borderlineSent}
        onChange={onBorderline}
      />
    )}
    {f.format === 'wav' && (f.channels ?? 1) > 1 && (
      <SelectField
        label="Channel sent for this file"
        value={channel === null ? 'import' : channelValue(channel)}
        disabled={disabled}
        onChange={(e) => onChannel(e.target.value === 'import' ? null : parseChannel(e.target.value))}
        hint={`${f.verdict.speech ? `Measured and sent now: ${f.verdict.speech.channelSent === 'mix' ? 'the mix' : `channel ${f.verdict.speech.channelSent}`}. ` : ''}Changing it measures this file again.`}
      >
        <option value="import">As for the whole import</option>
        {channelOptions(f.channels)}
      </SelectField>
    )}
  </div>
);

/** Borderline files, each sent only if the researcher ticks it (or every one, at the confirm step). */
const Borderline = ({
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
const ReasonList = ({ planId, action, title }: { planId: string; action: PlannedAction; title: string }) => {
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
              <td>
                {f.action === 'unassigned'
                  ? 'List it in the manifest, or set a file-name pattern it matches.'
                  : f.verdict.findings
                      .filter((x) => x.severity === 'refuse')
                      .map((x) => x.action)
                      .join(' ') || '—'}
              </td>
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

const Duplicates = ({
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

export const PreviewStep = ({
  summary,
  pending,
  error,
  progress,
  convert,
  onConvert,
  channel,
  onChannel,
  channelByFile,
  onFileChannel,
  insist,
  onInsist,
  borderline,
  onBorderline,
  onBack,
  onNext,
  onRetry,
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
  /** Channels chosen for single files; a change previews again. */
  channelByFile: Readonly<Record<string, ChannelChoice>>;
  onFileChannel: (path: string, c: ChannelChoice | null) => void;
  insist: ReadonlySet<string>;
  onInsist: (path: string, v: boolean) => void;
  /** Borderline files the researcher chose to send. */
  borderline: ReadonlySet<string>;
  onBorderline: (path: string, v: boolean) => void;
  onBack: () => void;
  onNext: () => void;
  onRetry: () => void;
}) => {
  const [action, setAction] = useState<PlannedAction | null>(null);
  const [open, setOpen] = useState<PlannedFile | null>(null);
  const [shown, setShown] = useState<number | null>(null);
  const onTotal = useCallback((n: number) => setShown(n), []);
  const onOpen = useCallback((f: PlannedFile) => setOpen(f), []);

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
  const sending = summary
    ? (summary.counts.upload ?? 0) + (summary.counts.convert_and_upload ?? 0) + insist.size + borderline.size
    : 0;
  return (
    <div className="import-preview">
      <Checkbox
        label="Convert stereo or low-rate WAV files to mono 16 kHz"
        checked={convert}
        onChange={onConvert}
        disabled={pending}
        hint="The original file is never changed. Switching this previews the files again."
      />
      <SelectField
        label="Channel sent from stereo and multichannel WAV files"
        value={channelValue(channel)}
        disabled={pending}
        onChange={(e) => onChannel(parseChannel(e.target.value))}
        hint="Sent as mono when conversion is on; a single file's channel can be chosen in its details. Changing this previews the files again."
      >
        {channelOptions(null)}
      </SelectField>
      {pending &&
        (progress ? (
          <Progress done={progress.done} total={progress.total} />
        ) : (
          <Loading label="Looking for files…" />
        ))}
      {summary && !pending && summary.totalFiles === 0 && (
        <Empty title="No recording was found">
          <p>
            Neither the folders and files you chose nor the manifest lead to an audio file (WAV, MP3, MP4/M4A
            or OGG).{summary.manifestErrors.length ? " The manifest's problems are listed below." : ''}
          </p>
          <p>Go back and choose another folder or manifest.</p>
        </Empty>
      )}
      {summary && !pending && (
        <>
          <p>
            {plural(summary.totalFiles, 'file')} ({fmtBytes(summary.totalBytes)}):{' '}
            <strong>{plural(sending, 'file')} will be sent</strong>; nothing is written or sent until you
            confirm.
          </p>
          <div className="action-filter" role="group" aria-label="Show files by action">
            <button type="button" aria-pressed={action === null} onClick={() => setAction(null)}>
              All <span className="count">{fmtInt(summary.totalFiles)}</span>
            </button>
            {ACTION_ORDER.map((a) => (
              <button
                key={a}
                type="button"
                aria-pressed={action === a}
                onClick={() => setAction(a)}
                disabled={(summary.counts[a] ?? 0) === 0}
                title={ACTION[a].explain}
              >
                <Badge tone={ACTION[a].tone}>{ACTION[a].label}</Badge>{' '}
                <span className="count">{fmtInt(summary.counts[a] ?? 0)}</span>
              </button>
            ))}
          </div>

          {summary.manifestErrors.length > 0 && (
            <Notice
              tone="warn"
              title={`The manifest has ${plural(summary.manifestErrors.length, 'problem')}; the other rows are used`}
            >
              <table className="table compact">
                <thead>
                  <tr>
                    <th scope="col">Line</th>
                    <th scope="col">Problem</th>
                  </tr>
                </thead>
                <tbody>
                  {summary.manifestErrors.map((m, i) => (
                    <tr key={i}>
                      <th scope="row">{m.line === 0 ? 'whole file' : m.line}</th>
                      <td>{m.message}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Notice>
          )}
          {summary.notices.length > 0 && (
            <Notice tone="info">
              <ul className="plain-list">
                {summary.notices.map((n) => (
                  <li key={n}>{n}</li>
                ))}
              </ul>
            </Notice>
          )}
          {(summary.newParticipants.length > 0 || summary.participantsWithoutAccount.length > 0) && (
            <div className="participants-new">
              {summary.newParticipants.length > 0 && (
                <p>
                  <strong>New participants ({fmtInt(summary.newParticipants.length)}):</strong>{' '}
                  {codes(summary.newParticipants)}. Each needs a service account (one request each; you decide
                  in the next step).
                </p>
              )}
              {summary.participantsWithoutAccount.length > 0 && (
                <p>
                  <strong>Without an account ({fmtInt(summary.participantsWithoutAccount.length)}):</strong>{' '}
                  {codes(summary.participantsWithoutAccount)}.
                </p>
              )}
            </div>
          )}

          <ReasonList planId={summary.planId} action="refused" title="Refused: never sent" />
          <ReasonList planId={summary.planId} action="unassigned" title="No participant: not imported" />
          <Borderline planId={summary.planId} sent={borderline} onSend={onBorderline} />
          <Duplicates planId={summary.planId} insist={insist} onInsist={onInsist} />
          <PlanQuality planId={summary.planId} />

          <div className="plan-files">
            <h3>{action ? `Files: ${ACTION[action].label}` : 'All files'}</h3>
            <PagedTable
              minWidth="58.5rem"
              method="imports.planFiles"
              input={{ planId: summary.planId, ...(action ? { action } : {}) }}
              columns={columns(insist, borderline)}
              label={`Files of the preview${action ? `: ${ACTION[action].label}` : ''}. Arrow keys move, Enter shows the details below.`}
              rowKey={(f) => f.path}
              onOpen={onOpen}
              onTotal={onTotal}
              height={`${Math.min(24, Math.max(12, (shown ?? 10) * 2.5 + 0.25))}rem`}
              empty="No file here."
            />
            {open ? (
              <FileDetail
                f={open}
                insisted={insist.has(open.path)}
                onInsist={(v) => onInsist(open.path, v)}
                borderlineSent={borderline.has(open.path)}
                onBorderline={(v) => onBorderline(open.path, v)}
                channel={channelByFile[open.path] ?? null}
                onChannel={(c) => onFileChannel(open.path, c)}
                disabled={pending}
              />
            ) : (
              <p className="muted small">Select a file (click, or Enter) to see everything about it.</p>
            )}
          </div>
        </>
      )}
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

const codes = (list: readonly string[]) =>
  list.length > 40 ? `${list.slice(0, 40).join(', ')} and ${list.length - 40} more` : list.join(', ');
