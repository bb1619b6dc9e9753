/**
 * One recording: the file and where its date came from, what Voicescope measured locally beside what the
 * service reported, the converted copy and the duplicate it repeats, the local verdict's findings with
 * what to do, each analysis type's state with its times and polls, every stored value with unit, kind and
 * meaning ("not provided" where the service gave none), and the recording's event log.
 */
import { useState } from 'react';
import { Link, useParams } from 'wouter';
import { explainApiError } from '../../../../shared/api/api-error-explained';
import { DATA_QUALITY } from '../../../../shared/api/data-quality';
import type { RecordingDetail } from '../../../../shared/contract/recordings.contract';
import { Badge, SimulatedBadge } from '../../components/Badges';
import { UploadStateBadge } from '../../components/UploadStateBadge';
import { Empty, Notice, QueryView } from '../../components/Feedback';
import { MeasureTable } from '../../components/MeasureTable';
import { TableScroll } from '../../components/TableScroll';
import { PageHeader, Section } from '../../components/Page';
import { useCall } from '../../lib/api';
import {
  agree,
  fmtBytes,
  fmtDateTime,
  fmtInt,
  fmtLongDateTime,
  fmtNumber,
  fmtSeconds,
  plural,
} from '../../lib/format';
import { ANALYSIS_LABEL, ANALYSIS_STATE } from '../../lib/labels';
import { paths } from '../../app/paths';
import { LocalMeasuresSection } from './LocalMeasuresSection';
import type { CurationDone } from '../../../../shared/curation';
import { useAction } from '../../lib/api';
import { ErrorNotice } from '../../components/Feedback';
import { CurationPanel } from './CurationPanel';
import { Listen } from './Listen';
import { SpeechDurations } from './SpeechDurations';

const DATE_SOURCE: Record<RecordingDetail['row']['recordedAtSource'], string> = {
  manifest: 'from the manifest',
  filename: 'from the file name',
  embedded: 'from the date stored in the file',
  file_mtime: 'from the file’s modification time (the least reliable source: check it)',
  researcher: 'entered by the researcher',
};

const VERDICT: Record<
  NonNullable<RecordingDetail['verdict']>['status'],
  { label: string; tone: 'ok' | 'warn' | 'bad' | 'info' }
> = {
  accepted: { label: 'Accepted', tone: 'ok' },
  accepted_with_warnings: { label: 'Accepted with warnings', tone: 'warn' },
  needs_conversion: { label: 'Needs conversion', tone: 'warn' },
  will_convert: { label: 'Converted before upload', tone: 'info' },
  borderline: { label: 'Borderline, sent by choice', tone: 'warn' },
  refused: { label: 'Refused', tone: 'bad' },
};

const hz = (n: number | null) => (n === null ? '—' : `${fmtInt(n)} Hz`);
const kbps = (n: number | null) => (n === null ? '—' : `${fmtInt(Math.round(n / 1000))} kbit/s`);
const channels = (n: number | null) =>
  n === null ? '—' : n === 1 ? 'mono' : n === 2 ? 'stereo' : `${n} channels`;

const FactsTable = ({ d }: { d: RecordingDetail }) => {
  const s = d.service;
  const rows: [string, string, string][] = [
    ['Format', d.local.format ?? '—', s?.format ?? '—'],
    ['Channels', channels(d.local.channels), s ? 'not reported' : '—'],
    ['Sample rate', hz(d.local.sampleRateHz), s ? hz(s.sampleRateHz) : '—'],
    ['Bit rate', kbps(d.local.bitRateBps), s ? kbps(s.bitRateBps) : '—'],
    ['Size', fmtBytes(d.local.sizeBytes), s ? fmtBytes(s.sizeBytes) : '—'],
    ['Duration', fmtSeconds(d.local.durationSeconds), s ? fmtSeconds(s.durationSeconds) : '—'],
  ];
  return (
    <TableScroll label="Facts table">
      <table className="table compact facts">
        <caption>
          What Voicescope measured in the original file, and what the service reported about the audio it
          received{d.uploadPath ? ' (the converted copy)' : ''}
        </caption>
        <thead>
          <tr>
            <th scope="col">Fact</th>
            <th scope="col">Local (original file)</th>
            <th scope="col">Service</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([k, a, b]) => (
            <tr key={k}>
              <th scope="row">{k}</th>
              <td>{a}</td>
              <td>{b}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
};

/** An event's JSON detail as "key: value" pairs (arrays joined), readable without knowing JSON. */
const EventDetail = ({ detail }: { detail: string }) => {
  let pairs: [string, string][] | null = null;
  try {
    const o = JSON.parse(detail) as unknown;
    if (o && typeof o === 'object' && !Array.isArray(o)) {
      pairs = Object.entries(o).map(([k, v]) => [
        k.replace(/_/g, ' '),
        typeof v === 'number'
          ? fmtNumber(v)
          : Array.isArray(v)
            ? v.join(', ')
            : typeof v === 'object' && v !== null
              ? JSON.stringify(v)
              : String(v),
      ]);
    }
  } catch {
    /* not JSON: shown as it is */
  }
  if (!pairs) return <code className="event-detail">{detail}</code>;
  if (pairs.length === 0) return <span className="muted">—</span>;
  return (
    <span className="event-detail">
      {pairs.map(([k, v], i) => (
        <span key={k}>
          {i > 0 ? ' · ' : ''}
          <span className="muted">{k}:</span> {v}
        </span>
      ))}
    </span>
  );
};

const Detail = ({
  d,
  studyId,
  onDeleted,
}: {
  d: RecordingDetail;
  studyId: number;
  onDeleted: (done: CurationDone) => void;
}) => {
  const r = d.row;
  const requested = d.analyses.filter((a) => a.state !== 'not_requested');
  const apiErr = d.uploadError ? explainApiError(d.uploadError) : null;
  return (
    <>
      <p className="breadcrumb">
        <Link href={paths.study(studyId).participants}>Participants</Link> <span aria-hidden="true">›</span>{' '}
        <Link href={paths.study(studyId).participant(r.participantId)}>{r.participantCode}</Link>{' '}
        <span aria-hidden="true">›</span>
      </p>
      <PageHeader
        title={r.fileName}
        badge={r.simulated ? <SimulatedBadge long /> : undefined}
        subtitle={
          <>
            Participant{' '}
            <Link href={paths.study(studyId).participant(r.participantId)}>{r.participantCode}</Link>
            {r.session ? <> · session {r.session}</> : null} · recorded {fmtLongDateTime(r.recordedAt)} (
            {DATE_SOURCE[r.recordedAtSource]}){' · '}
            <UploadStateBadge r={r} />
            {r.apiVersion ? <> · API {r.apiVersion}</> : null}
          </>
        }
      />
      {r.problem && (
        <Notice tone="bad" title="This file needs you">
          <p>{r.problem.summary}</p>
          <p className="notice-action">{r.problem.action}</p>
        </Notice>
      )}
      {r.simulated && (
        <Notice tone="info">
          These results come from the built-in sandbox: they are simulated, not a real analysis of this voice.
        </Notice>
      )}

      <Listen recordingId={r.id} />

      <CurationPanel d={d} studyId={studyId} onDeleted={onDeleted} />

      <Section title="Values">
        {requested.length === 0 ? (
          <Empty title="No analysis was requested for this file" />
        ) : (
          requested.map((a) => (
            <MeasureTable
              key={a.type}
              type={a.type}
              values={d.values}
              completed={a.state === 'completed'}
              stateLabel={ANALYSIS_STATE[a.state].label}
              flags={d.flags.filter((f) => f.analysisType === a.type || f.analysisType === null)}
              caption={`${ANALYSIS_LABEL[a.type]}: ${ANALYSIS_STATE[a.state].label}${a.state === 'completed' && r.simulated ? ' (simulated)' : ''}`}
            />
          ))
        )}
      </Section>

      <LocalMeasuresSection recordingId={r.id} />
      <DataQuality d={d} />

      <Section title="Analyses">
        <TableScroll label="Analyses table">
          <table className="table compact">
            <caption className="sr-only">Each analysis type’s state</caption>
            <thead>
              <tr>
                <th scope="col">Analysis</th>
                <th scope="col">State</th>
                <th scope="col">Requested</th>
                <th scope="col">Finished</th>
                <th scope="col" className="right">
                  Polls
                </th>
                <th scope="col">Last asked</th>
                <th scope="col">Next ask</th>
              </tr>
            </thead>
            <tbody>
              {d.analyses.map((a) => (
                <tr key={a.type}>
                  <th scope="row">{ANALYSIS_LABEL[a.type]}</th>
                  <td>
                    <Badge tone={ANALYSIS_STATE[a.state].tone}>{ANALYSIS_STATE[a.state].label}</Badge>
                    {a.state === 'timed_out' ? (
                      <span className="muted small">
                        {' '}
                        — past the service’s five minutes; Voicescope keeps asking, less often
                      </span>
                    ) : null}
                  </td>
                  <td>{a.state === 'not_requested' ? '—' : fmtDateTime(a.requestedAt)}</td>
                  <td>{fmtDateTime(a.finishedAt)}</td>
                  <td className="right">{fmtInt(a.polls)}</td>
                  <td>{fmtDateTime(a.lastPolledAt)}</td>
                  <td>{fmtDateTime(a.nextPollAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </Section>

      <Section title="File">
        <dl className="facts-list">
          <dt>File name</dt>
          <dd>
            <code className="wrap-anywhere">{r.fileName}</code>
          </dd>
          <dt>Original file</dt>
          <dd>
            <code className="wrap-anywhere">{d.sourcePath}</code>
          </dd>
          <dt>Sent to the service</dt>
          <dd>
            {d.uploadPath ? (
              <>
                A converted copy, <code>{d.uploadPath}</code> (the original was not changed)
              </>
            ) : (
              'The original file, as it is'
            )}
          </dd>
          <dt>Content hash (SHA-256)</dt>
          <dd>
            <code className="hash">{d.contentSha256}</code>
          </dd>
          <dt>Recorded at</dt>
          <dd>
            <time dateTime={r.recordedAt}>{fmtDateTime(r.recordedAt)}</time> ({fmtLongDateTime(r.recordedAt)}
            ), {DATE_SOURCE[r.recordedAtSource]}
          </dd>
          {d.duplicateOf && (
            <>
              <dt>Duplicate of</dt>
              <dd>
                Same audio as{' '}
                <Link href={paths.study(studyId).recording(d.duplicateOf.recordingId)}>
                  {d.duplicateOf.fileName}
                </Link>
                , already imported for this participant
              </dd>
            </>
          )}
          <dt>Upload attempts</dt>
          <dd>{fmtInt(d.uploadAttempts)}</dd>
          {d.service && (
            <>
              <dt>Service recording id</dt>
              <dd>
                <code>{d.service.recordingId}</code>
                {d.service.uploadedAt ? `, received ${fmtDateTime(d.service.uploadedAt)}` : ''}
              </dd>
            </>
          )}
          <dt>Isolate oldest speaker</dt>
          <dd>{d.isolateOldestSpeaker ? 'Requested: only the oldest speaker’s voice was analysed' : 'No'}</dd>
          {apiErr && d.uploadError && (
            <>
              <dt>Service’s answer</dt>
              <dd>
                {apiErr.summary} {apiErr.action}
                {d.uploadError.serviceMessage ? ` The service said: “${d.uploadError.serviceMessage}”` : ''}
              </dd>
            </>
          )}
        </dl>
        <FactsTable d={d} />
        <SpeechDurations d={d} />
      </Section>

      <Section title="Local checks">
        {!d.verdict ? (
          <p className="muted">No local verdict was stored for this file.</p>
        ) : (
          <>
            <p>
              <Badge tone={VERDICT[d.verdict.status].tone}>{VERDICT[d.verdict.status].label}</Badge>
            </p>
            {d.verdict.findings.length === 0 ? (
              <p className="muted">Every check passed.</p>
            ) : (
              <ul className="findings">
                {d.verdict.findings.map((f) => (
                  <li key={f.code}>
                    {f.fixedByConversion && d.uploadPath ? (
                      <>
                        <Badge tone="info">Fixed by conversion</Badge> {f.message}{' '}
                        <span className="muted">
                          The converted copy was sent instead; the original is unchanged.
                        </span>
                      </>
                    ) : (
                      <>
                        <Badge tone={f.severity === 'refuse' ? 'bad' : 'warn'}>
                          {f.severity === 'refuse' ? 'Refused' : 'Warning'}
                        </Badge>{' '}
                        {f.message} <span className="notice-action">{f.action}</span>
                      </>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </Section>

      <Section title="Event log">
        {d.events.length === 0 ? (
          <p className="muted">No events recorded for this file yet.</p>
        ) : (
          <TableScroll label="Event log table">
            <table className="table compact">
              <caption className="sr-only">
                What was sent and received for this file, oldest first ({plural(d.events.length, 'event')})
              </caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Event</th>
                  <th scope="col">Detail</th>
                </tr>
              </thead>
              <tbody>
                {d.events.map((e, i) => (
                  <tr key={i}>
                    <td>{fmtDateTime(e.at)}</td>
                    <th scope="row">{e.kind.replace(/_/g, ' ')}</th>
                    <td>
                      <EventDetail detail={e.detail} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </Section>
    </>
  );
};

const ORIGIN: Record<RecordingDetail['flags'][number]['origin'], string> = {
  receipt: 'Upload receipt',
  receipt_check: 'Receipt compared with what was sent',
  poll: 'Analysis answer',
};

/** Said of every type and member the service reports that the specification does not describe. */
const NOT_IN_SPECIFICATION = 'Reported by the service, not described by the specification';

/** Everything the service sent that departs from the specification, each kept as received, with why it is marked. */
const DataQuality = ({ d }: { d: RecordingDetail }) => {
  const unlisted = d.answers.filter((a) => !a.listed);
  if (d.flags.length === 0 && unlisted.length === 0) return null;
  return (
    <Section title="Data quality">
      <p>
        The service sent {d.flags.length === 1 ? 'one thing' : `${d.flags.length} things`} that{' '}
        {agree(d.flags.length, 'departs', 'depart')} from its specification. Every value is kept as received
        and marked; compare flagged values with care.
      </p>
      {d.flags.length > 0 && (
        <TableScroll label="Data-quality flags table">
          <table className="table compact data-quality">
            <caption className="sr-only">Data-quality flags of this recording</caption>
            <thead>
              <tr>
                <th scope="col">Where</th>
                <th scope="col">What is odd</th>
                <th scope="col">Received</th>
                <th scope="col">Expected</th>
              </tr>
            </thead>
            <tbody>
              {d.flags.map((f, i) => (
                <tr key={i} data-flag={f.code}>
                  <th scope="row">
                    {ORIGIN[f.origin]}
                    {f.analysisType
                      ? `, ${ANALYSIS_LABEL[f.analysisType as keyof typeof ANALYSIS_LABEL] ?? f.analysisType}`
                      : ''}
                    <div className="muted">
                      <code>{f.path}</code>
                    </div>
                  </th>
                  <td>
                    <Badge tone="warn">{f.code.replace(/_/g, ' ')}</Badge> {DATA_QUALITY[f.code].meaning}
                  </td>
                  <td>
                    <code>{f.received ?? 'nothing'}</code>
                  </td>
                  <td>{f.expected}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {unlisted.map((a) => (
        <div key={a.name} className="unlisted-analysis">
          <p>
            <Badge tone="info">{NOT_IN_SPECIFICATION}</Badge> Analysis type <code>{a.name}</code>, kept as
            received:
          </p>
          <pre className="raw-json">{a.raw}</pre>
        </div>
      ))}
    </Section>
  );
};

/** After a never-sent recording was deleted here: what happened, the way back to its participant, and undo. */
const Deleted = ({
  studyId,
  participant,
  done,
  onUndone,
}: {
  studyId: number;
  participant: { id: number; code: string };
  done: CurationDone;
  onUndone: () => void;
}) => {
  const undo = useAction('curation.undoAct');
  return (
    <>
      <Notice tone="ok" title="Recording deleted">
        <p>
          Its record is gone from the study (nothing of it had been sent; your original file is untouched).
          The deletion is in the study’s curation record and the audit log.
        </p>
        <div className="row">
          <button
            type="button"
            disabled={undo.pending}
            onClick={async () => {
              if ((await undo.run({ actId: done.act })).ok) onUndone();
            }}
          >
            Undo the deletion
          </button>
          <Link href={paths.study(studyId).participant(participant.id)}>Back to {participant.code}</Link>
        </div>
      </Notice>
      <ErrorNotice error={undo.error} />
    </>
  );
};

export const RecordingDetailPage = () => {
  const params = useParams<{ id: string; rid: string }>();
  const studyId = Number(params.id);
  const q = useCall('recordings.detail', { recordingId: Number(params.rid) });
  const [deleted, setDeleted] = useState<{
    done: CurationDone;
    participant: { id: number; code: string };
  } | null>(null);
  return (
    <div className="page">
      {deleted ? (
        <Deleted
          studyId={studyId}
          participant={deleted.participant}
          done={deleted.done}
          onUndone={() => setDeleted(null)}
        />
      ) : (
        <QueryView q={q} loading="Loading the recording…">
          {(d) => (
            <Detail
              d={d}
              studyId={studyId}
              onDeleted={(done) =>
                setDeleted({ done, participant: { id: d.row.participantId, code: d.row.participantCode } })
              }
            />
          )}
        </QueryView>
      )}
    </div>
  );
};
