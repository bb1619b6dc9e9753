/**
 * One recording: the file and where its date came from, what Voicescope measured locally beside what the
 * service reported, the converted copy and the duplicate it repeats, the local verdict's findings with
 * what to do, each analysis type's state with its times and polls, every stored value with unit, kind and
 * meaning ("not provided" where the service gave none), and the recording's event log.
 */
import { useState } from 'react';
import { Link, useParams } from 'wouter';
import { DATA_QUALITY } from '../../../../shared/api/data-quality';
import type { RecordingDetail } from '../../../../shared/contract/recordings.contract';
import { Badge, SimulatedBadge } from '../../components/Badges';
import { UploadStateBadge } from '../../components/UploadStateBadge';
import { Empty, Notice, QueryView } from '../../components/Feedback';
import { MeasureTable } from '../../components/MeasureTable';
import { TableScroll } from '../../components/TableScroll';
import { PageHeader, Section } from '../../components/Page';
import { useCall } from '../../lib/api';
import { agree, fmtDateTime, fmtInt, fmtLongDateTime, plural } from '../../lib/format';
import { ANALYSIS_LABEL, ANALYSIS_STATE } from '../../lib/labels';
import { paths } from '../../app/paths';
import { LocalMeasuresSection } from './LocalMeasuresSection';
import type { CurationDone } from '../../../../shared/curation';
import { useAction } from '../../lib/api';
import { ErrorNotice } from '../../components/Feedback';
import { CurationPanel } from './CurationPanel';
import { Listen } from './Listen';
import { DATE_SOURCE, eventDetailPairs } from './recording-facts';
import { RecordingFile } from './RecordingFile';

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

/** An event's JSON detail as "key: value" pairs (arrays joined), readable without knowing JSON. */
const EventDetail = ({ detail }: { detail: string }) => {
  const pairs = eventDetailPairs(detail);
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

const RecordingHeader = ({ r, studyId }: { r: RecordingDetail['row']; studyId: number }) => (
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
  </>
);

/** Every stored value of each analysis requested, with unit, kind and meaning. */
const Values = ({ d }: { d: RecordingDetail }) => {
  const requested = d.analyses.filter((a) => a.state !== 'not_requested');
  return (
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
            caption={`${ANALYSIS_LABEL[a.type]}: ${ANALYSIS_STATE[a.state].label}${a.state === 'completed' && d.row.simulated ? ' (simulated)' : ''}`}
          />
        ))
      )}
    </Section>
  );
};

/** Each analysis type's state, with its times and polls. */
const Analyses = ({ analyses }: { analyses: RecordingDetail['analyses'] }) => (
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
          {analyses.map((a) => (
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
);

/** The local verdict's findings, with what to do (a finding fixed by the conversion says so). */
const LocalChecks = ({ d }: { d: RecordingDetail }) => (
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
);

const EventLog = ({ events }: { events: RecordingDetail['events'] }) => (
  <Section title="Event log">
    {events.length === 0 ? (
      <p className="muted">No events recorded for this file yet.</p>
    ) : (
      <TableScroll label="Event log table">
        <table className="table compact">
          <caption className="sr-only">
            What was sent and received for this file, oldest first ({plural(events.length, 'event')})
          </caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Event</th>
              <th scope="col">Detail</th>
            </tr>
          </thead>
          <tbody>
            {events.map((e, i) => (
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
);

const Detail = ({
  d,
  studyId,
  onDeleted,
}: {
  d: RecordingDetail;
  studyId: number;
  onDeleted: (done: CurationDone) => void;
}) => (
  <>
    <RecordingHeader r={d.row} studyId={studyId} />
    <Listen recordingId={d.row.id} />
    <CurationPanel d={d} studyId={studyId} onDeleted={onDeleted} />
    <Values d={d} />
    <LocalMeasuresSection recordingId={d.row.id} />
    <DataQuality d={d} />
    <Analyses analyses={d.analyses} />
    <RecordingFile d={d} studyId={studyId} />
    <LocalChecks d={d} />
    <EventLog events={d.events} />
  </>
);

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
