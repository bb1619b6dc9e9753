/**
 * One participant: code, account and data recency; their timeline of every measure with a
 * within-person baseline; their recordings (paged) leading to each recording's detail; and edits.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import type { RecordingRow } from '../../../../shared/contract/recordings.contract';
import type { Timeline as TimelineData } from '../../../../shared/contract/timeline.contract';
import { Badge, SimulatedBadge } from '../../components/Badges';
import { UploadStateBadge } from '../../components/UploadStateBadge';
import { Empty, QueryView } from '../../components/Feedback';
import { PageHeader, Section, Stat } from '../../components/Page';
import { PagedTable, type Column } from '../../components/PagedTable';
import { RecencyBadge } from '../../components/RecencyBadge';
import { useCall } from '../../lib/api';
import { fmtDate, fmtDateTime, fmtInt, plural } from '../../lib/format';
import { ANALYSIS_LABEL, ANALYSIS_STATE } from '../../lib/labels';
import { ParticipantAttributes } from './ParticipantAttributes';
import { MergeParticipant } from './MergeParticipant';
import { ParticipantDetails } from './ParticipantDetails';
import { Timeline } from './Timeline';
import { paths } from '../../app/paths';
import { useSiteLabel } from '../team/site-names';

/** "All 4 completed", "2 completed, 1 processing": the analyses of one file in words (not requested ones left out). */
const analysesInWords = (r: RecordingRow) => {
  const asked = r.analyses.filter((a) => a.state !== 'not_requested');
  const counts = new Map<string, number>();
  for (const a of asked)
    counts.set(ANALYSIS_STATE[a.state].label, (counts.get(ANALYSIS_STATE[a.state].label) ?? 0) + 1);
  if (asked.length === 0) return 'none requested';
  if (counts.size === 1)
    return `${asked.length === 1 ? '' : `All ${asked.length} `}${[...counts.keys()][0]!.toLowerCase()}`;
  return [...counts].map(([label, n]) => `${n} ${label.toLowerCase()}`).join(', ');
};

// Columns shrink (minmax(0, …), cells end in an ellipsis) so the grid never scrolls sideways at any zoom.
const recordingColumns: readonly Column<RecordingRow>[] = [
  { key: 'recorded', header: 'Recorded', width: 'minmax(0, 11fr)', render: (r) => fmtDateTime(r.recordedAt) },
  {
    key: 'file',
    header: 'File',
    width: 'minmax(0, 9fr)',
    render: (r) => <span title={r.fileName}>{r.fileName}</span>,
  },
  { key: 'session', header: 'Session', width: 'minmax(0, 5fr)', render: (r) => r.session ?? '—' },
  {
    key: 'upload',
    header: 'Upload',
    width: 'minmax(0, 7fr)',
    render: (r) => <UploadStateBadge r={r} />,
  },
  {
    key: 'analyses',
    header: 'Analyses',
    width: 'minmax(0, 9fr)',
    render: (r) => (
      <span
        title={r.analyses
          .map((a) => `${ANALYSIS_LABEL[a.type]}: ${ANALYSIS_STATE[a.state].label}`)
          .join('; ')}
      >
        {analysesInWords(r)}
      </span>
    ),
  },
  {
    key: 'audio',
    header: 'Audio',
    width: 'minmax(0, 6fr)',
    render: (r) =>
      r.converted ? (
        <Badge tone="info">Converted</Badge>
      ) : r.verdictStatus === 'accepted_with_warnings' ? (
        <Badge tone="warn">Warnings</Badge>
      ) : (
        'as recorded'
      ),
  },
  {
    key: 'version',
    header: 'Results',
    width: 'minmax(0, 9fr)',
    render: (r) =>
      r.apiVersion ? (
        <>
          {r.apiVersion}
          {r.simulated ? (
            <>
              {' '}
              <SimulatedBadge />
            </>
          ) : null}
        </>
      ) : (
        '—'
      ),
  },
];

export const ParticipantPage = () => {
  const params = useParams<{ id: string; pid: string }>();
  const studyId = Number(params.id);
  const participantId = Number(params.pid);
  const [, navigate] = useLocation();
  const p = useCall('participants.get', { participantId });
  const siteLabel = useSiteLabel(studyId);
  // Said by the timeline once it has loaded (one call for both: the timeline is the page's largest).
  const [simulated, setSimulated] = useState(false);
  // The sections under the charts (recordings, attributes, details, merging) are made once the charts
  // near the window are drawn and painted, or after 1.5 s whatever happens: their calls and rows do
  // not compete with the charts (made a frame after the timeline's answer, they were made
  // before the charts' plots, which wait for their boxes to be laid out).
  const [below, setBelow] = useState(false);
  useEffect(() => {
    const late = window.setTimeout(() => setBelow(true), 1500);
    return () => window.clearTimeout(late);
  }, []);
  // Read when a chart is saved (the participant may arrive after the timeline; see Timeline's `who`).
  const code = useRef('');
  useEffect(() => {
    if (p.data) code.current = p.data.code;
  }, [p.data]);
  const who = useCallback(() => `Participant ${code.current}`, []);
  const onTimeline = useCallback((t: TimelineData) => {
    setSimulated(t.sessions.some((s) => s.simulated));
  }, []);
  const onChartsDrawn = useCallback(() => {
    // After the frame that paints them, when the window is next idle (at the latest 300 ms on).
    requestAnimationFrame(() =>
      typeof window.requestIdleCallback === 'function'
        ? window.requestIdleCallback(() => setBelow(true), { timeout: 300 })
        : window.setTimeout(() => setBelow(true), 0),
    );
  }, []);

  return (
    <div className="page">
      <p className="breadcrumb">
        <Link href={paths.study(studyId).participants}>Participants</Link> <span aria-hidden="true">›</span>
      </p>
      <QueryView q={p} loading="Loading the participant…">
        {(x) => (
          <>
            <PageHeader
              title={`Participant ${x.code}`}
              badge={simulated ? <SimulatedBadge long /> : undefined}
              subtitle={
                <>
                  {x.accountId ? (
                    <>
                      Account <code>{x.accountId}</code>
                    </>
                  ) : (
                    <Badge tone="warn">No account</Badge>
                  )}
                  {' · '}
                  <RecencyBadge recency={x.recency} />
                  {x.recency.daysSinceLast !== null && (
                    <> · last recording {plural(x.recency.daysSinceLast, 'day')} ago</>
                  )}
                </>
              }
            />
            <div className="stats">
              {siteLabel && <Stat label="Site" value={siteLabel(x.site)} />}
              <Stat label="Recordings" value={fmtInt(x.recordings)} />
              <Stat label="Fully analysed" value={fmtInt(x.completed)} tone="ok" />
              <Stat
                label="Files that need you"
                value={fmtInt(x.needsAttention)}
                {...(x.needsAttention > 0 ? { tone: 'bad' as const } : {})}
              />
              <Stat label="First recording" value={fmtDate(x.firstRecordingAt)} />
              <Stat label="Last recording" value={fmtDate(x.lastRecordingAt)} />
              <Stat
                label="Visits missed"
                value={
                  x.recency.status === 'no_schedule' || x.recency.status === 'never'
                    ? '—'
                    : fmtInt(x.recency.missedVisits)
                }
                {...(x.recency.missedVisits > 0
                  ? { tone: x.recency.missedVisits > 1 ? ('bad' as const) : ('warn' as const) }
                  : {})}
              />
            </div>
          </>
        )}
      </QueryView>

      {/* Asked for at once, beside the participant (not after it): the charts are what takes longest. */}
      {!p.isError && (
        <Timeline
          studyId={studyId}
          participantId={participantId}
          who={who}
          onLoaded={onTimeline}
          onChartsDrawn={onChartsDrawn}
        />
      )}

      {p.data && below && (
        <Section
          title="Recordings"
          actions={<Link href={paths.study(studyId).recordings}>All recordings of the study</Link>}
        >
          {/* The shared table's empty state sits inside its grid role, which axe refuses; say it here instead. */}
          {p.data.recordings === 0 ? (
            <Empty title="No recordings yet">
              <Link href={paths.study(studyId).import}>Import recordings</Link> for this participant.
            </Empty>
          ) : (
            <PagedTable
              method="recordings.page"
              input={{ studyId, participantId, sort: 'recorded_at', dir: 'desc' }}
              columns={recordingColumns}
              label={`Recordings of ${p.data.code}. Arrow keys move, Enter opens.`}
              rowKey={(r) => r.id}
              onOpen={(r) => navigate(paths.study(studyId).recording(r.id))}
              height={`min(24rem, 60vh, ${p.data.recordings * 2.5 + 0.25}rem)`}
              empty="No recordings (cancelled files only)."
            />
          )}
        </Section>
      )}

      {p.data && below && (
        <Section title="Attributes">
          <ParticipantAttributes studyId={studyId} participantId={participantId} />
        </Section>
      )}

      {p.data && below && (
        <Section title="Details">
          <ParticipantDetails p={p.data} />
        </Section>
      )}

      {p.data && below && (
        <MergeParticipant
          studyId={studyId}
          participantId={participantId}
          code={p.data.code}
          mergedInto={p.data.mergedInto}
        />
      )}
    </div>
  );
};
