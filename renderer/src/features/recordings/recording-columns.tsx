/**
 * The columns of a recordings table (the study's recordings page and a batch's files): the file, its
 * participant and time, the upload state, one badge per analysis type, and for a file that needs the
 * researcher what happened and what to do. Colour never stands alone: every badge has its words.
 * The screens that show these tables carry the "Simulated" label in their heading for a sandbox study;
 * the rows show states, not values.
 */
import type { RecordingRow } from '../../../../shared/contract/recordings.contract';
import { Badge } from '../../components/Badges';
import { UploadStateBadge } from '../../components/UploadStateBadge';
import type { Column } from '../../components/PagedTable';
import { fmtDateTime, fmtLongDateTime } from '../../lib/format';
import { ANALYSIS_LABEL, ANALYSIS_STATE } from '../../lib/labels';

type Analysis = RecordingRow['analyses'][number];

/** Abbreviations that fit a table cell; the full names are in the title and for screen readers. */
const SHORT_TYPE: Record<Analysis['type'], string> = {
  wellbeing: 'WB',
  parkinsons: 'PD',
  alzheimers: 'AD',
  communication_coach: 'CC',
};
const SHORT_STATE: Record<Analysis['state'], string> = {
  awaiting_upload: 'waiting',
  processing: 'running',
  completed: 'done',
  error: 'failed',
  not_requested: 'not asked',
  timed_out: 'late',
  unanswered: 'unanswered',
};

const NO_ANALYSIS: Partial<Record<RecordingRow['uploadState'], string>> = {
  refused_locally: 'None: not sent',
  duplicate: 'None: held back',
  rejected: 'None: refused by the service',
  upload_uncertain: 'None: upload in doubt',
  cancelled: 'None collected',
};
const WILL_BE_SENT: ReadonlySet<RecordingRow['uploadState']> = new Set([
  'pending',
  'queued',
  'uploading',
  'uploaded',
]);

/** A date and time for a table cell: ISO 8601, local time (lib/format.ts); the full form is in its title. */
export const fmtCompact = (iso: string | null) => fmtDateTime(iso);

/**
 * One badge when every requested analysis is in the same state ("Completed, all 3"), otherwise one
 * short badge per type ("PD failed"), so three or four types fit a table cell.
 */
export const AnalysisBadges = ({ r }: { r: RecordingRow }) => {
  if (r.analyses.length === 0) return <span className="muted">—</span>;
  // A file that was never sent (or whose upload is in doubt) is not "awaiting upload": say so instead.
  if (!WILL_BE_SENT.has(r.uploadState))
    return <span className="muted">{NO_ANALYSIS[r.uploadState] ?? 'None'}</span>;
  const full = r.analyses
    .map((a) => `${ANALYSIS_LABEL[a.type]}: ${ANALYSIS_STATE[a.state].label}`)
    .join('; ');
  const first = r.analyses[0]!.state;
  const same = r.analyses.every((a) => a.state === first);
  return (
    <span className="analysis-states" title={full}>
      {same ? (
        <Badge tone={ANALYSIS_STATE[first].tone}>
          {ANALYSIS_STATE[first].label}
          {r.analyses.length > 1 ? `, all ${r.analyses.length}` : ''}
        </Badge>
      ) : (
        r.analyses.map((a) => (
          <Badge key={a.type} tone={ANALYSIS_STATE[a.state].tone}>
            <span aria-hidden="true">
              {SHORT_TYPE[a.type]} {SHORT_STATE[a.state]}
            </span>
          </Badge>
        ))
      )}
      <span className="sr-only">
        {full}
        {r.simulated ? ' (simulated)' : ''}
      </span>
    </span>
  );
};

export const problemText = (r: RecordingRow) => (r.problem ? `${r.problem.summary} ${r.problem.action}` : '');

export const recordingColumns = (opts: { batch?: boolean } = {}): Column<RecordingRow>[] => [
  {
    key: 'file',
    header: 'File',
    width: 'minmax(8rem, 1.6fr)',
    sort: 'file',
    render: (r) => <span title={r.fileName}>{r.fileName}</span>,
  },
  {
    key: 'participant',
    header: 'Participant',
    width: '5.75rem',
    sort: 'participant',
    render: (r) => <span title={r.participantCode}>{r.participantCode}</span>,
  },
  {
    key: 'recorded',
    header: 'Recorded at',
    width: '9.25rem',
    sort: 'recorded_at',
    render: (r) => <span title={fmtLongDateTime(r.recordedAt)}>{fmtCompact(r.recordedAt)}</span>,
  },
  {
    key: 'session',
    header: 'Session',
    width: '6rem',
    render: (r) =>
      r.session ? <span title={r.session}>{r.session}</span> : <span className="muted">—</span>,
  },
  ...(opts.batch
    ? [
        {
          key: 'batch',
          header: 'Batch',
          width: '3.25rem',
          align: 'right' as const,
          render: (r: RecordingRow) => r.batchId ?? '—',
        },
      ]
    : []),
  {
    key: 'upload',
    header: 'Upload',
    width: '10.5rem',
    sort: 'state',
    render: (r) => (
      <>
        <UploadStateBadge r={r} />
        {r.converted ? <span className="muted small"> converted</span> : null}
      </>
    ),
  },
  {
    key: 'analyses',
    header: 'Analyses',
    width: 'minmax(11rem, 1.2fr)',
    render: (r) => <AnalysisBadges r={r} />,
  },
  {
    key: 'problem',
    header: 'What needs you',
    width: 'minmax(8rem, 1.6fr)',
    render: (r) =>
      r.problem ? (
        <span title={problemText(r)}>
          {r.problem.summary} <span className="muted">{r.problem.action}</span>
        </span>
      ) : (
        <span className="muted">—</span>
      ),
  },
];
