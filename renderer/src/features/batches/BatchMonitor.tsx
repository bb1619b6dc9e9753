/**
 * One batch as it runs: its state in words, upload and analysis progress, counts by state, start,
 * pause, resume and cancel, the queue-wide pause with its reason, what needs the researcher (unknown
 * outcomes with the usage before and after, refusals, duplicates, "retry what is safe"), where the
 * upload receipts differ from what was sent, and every file
 * in a virtualised table. Engine events refresh the figures and the rows in place: the progress
 * arrives as data (no refetch), the table keeps its rows and scroll position while a page reloads.
 */
import { useState } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { RECORDING_FILTERS } from '../../../../shared/contract/recordings.contract';
import { ANALYSIS_STATES, UPLOAD_STATES } from '../../../../shared/states';
import type { BatchProgress } from '../../../../shared/study';
import { Badge, SimulatedBadge } from '../../components/Badges';
import { ErrorNotice, Notice, QueryView } from '../../components/Feedback';
import { PageHeader, Section } from '../../components/Page';
import { PagedTable } from '../../components/PagedTable';
import { BatchBars } from '../../components/Progress';
import { useCall } from '../../lib/api';
import { fmtDateTime, fmtInt, plural } from '../../lib/format';
import { batchBadge, batchStatus, clockNotice } from './batch-status';
import { ANALYSIS_LABEL, ANALYSIS_STATE, HELD_BORDERLINE, UPLOAD_STATE, type Tone } from '../../lib/labels';
import { useTableControls } from '../../lib/use-table-controls';
import { recordingColumns } from '../recordings/recording-columns';
import {
  EMPTY,
  FILTER_LABEL,
  RecordingToolbar,
  type RecordingFilter,
  type RecordingSort,
} from '../recordings/RecordingsPage';
import { BatchControls } from './BatchControls';
import { NeedsYou, useNeedsYouCount } from './NeedsYou';
import { QueueBanner } from './QueueBanner';
import { ReceiptDifferences } from './ReceiptDifferences';
import { paths } from '../../app/paths';

/** Files by upload state as the researcher reads them: borderline files not chosen for sending are held, not refused. */
const uploadCounts = (b: BatchProgress): [string, { label: string; tone: Tone }, number][] =>
  UPLOAD_STATES.flatMap((s): [string, { label: string; tone: Tone }, number][] =>
    s === 'refused_locally'
      ? [
          [s, UPLOAD_STATE[s], (b.uploads[s] ?? 0) - b.heldBorderline],
          ['held_borderline', HELD_BORDERLINE, b.heldBorderline],
        ]
      : [[s, UPLOAD_STATE[s], b.uploads[s] ?? 0]],
  ).filter(([, , n]) => n > 0);

const Counts = ({ b }: { b: BatchProgress }) => (
  <div className="count-tables">
    <table className="table compact">
      <caption>Files by upload state</caption>
      <tbody>
        {uploadCounts(b).map(([key, { label, tone }, n]) => (
          <tr key={key}>
            <th scope="row">
              <Badge tone={tone}>{label}</Badge>
            </th>
            <td className="right">{fmtInt(n)}</td>
          </tr>
        ))}
      </tbody>
    </table>
    <table className="table compact">
      <caption>Analyses by state ({b.analyses.map((a) => ANALYSIS_LABEL[a]).join(', ')})</caption>
      <tbody>
        {ANALYSIS_STATES.filter((s) => (b.analysesByState[s] ?? 0) > 0).map((s) => (
          <tr key={s}>
            <th scope="row">
              <Badge tone={ANALYSIS_STATE[s].tone}>{ANALYSIS_STATE[s].label}</Badge>
            </th>
            <td className="right">{fmtInt(b.analysesByState[s] ?? 0)}</td>
          </tr>
        ))}
        {ANALYSIS_STATES.every((s) => (b.analysesByState[s] ?? 0) === 0) && (
          <tr>
            <td colSpan={2} className="muted">
              None yet: analyses start when a file is uploaded.
            </td>
          </tr>
        )}
      </tbody>
    </table>
  </div>
);

const BatchFiles = ({ studyId, batchId }: { studyId: number; batchId: number }) => {
  const [, navigate] = useLocation();
  const [filter, setFilter] = useState<RecordingFilter>('all');
  const { search, setSearch, query, sort, setSort, onSort, total, onTotal } = useTableControls<RecordingSort>(
    { by: 'id', dir: 'asc' },
  );
  return (
    <Section title="Files of this batch">
      <div className="action-filter" role="group" aria-label="Show files">
        {RECORDING_FILTERS.map((f) => (
          <button key={f} type="button" aria-pressed={filter === f} onClick={() => setFilter(f)}>
            {FILTER_LABEL[f]}
          </button>
        ))}
      </div>
      <RecordingToolbar
        search={search}
        onSearch={setSearch}
        sort={sort}
        onSort={setSort}
        total={total}
        label="files of this batch"
      />
      <PagedTable
        minWidth="64.25rem"
        method="recordings.page"
        input={{
          studyId,
          batchId,
          filter,
          sort: sort.by,
          dir: sort.dir,
          ...(query ? { search: query } : {}),
        }}
        columns={recordingColumns()}
        label={`Files of this batch${filter !== 'all' ? `: ${FILTER_LABEL[filter]}` : ''}. Arrow keys move, Enter opens the recording.`}
        rowKey={(r) => r.id}
        onOpen={(r) => navigate(paths.study(studyId).recording(r.id))}
        sort={sort}
        onSort={onSort}
        onTotal={onTotal}
        // As tall as its rows (40 px each), between 12 and 28 rem: a small batch leaves no empty box.
        height={`${Math.min(28, Math.max(12, (total ?? 10) * 2.5 + 0.25))}rem`}
        empty={
          query ? (
            <>No participant, file or session contains “{query}”.</>
          ) : filter === 'all' ? (
            'This batch has no files.'
          ) : (
            EMPTY[filter]
          )
        }
      />
    </Section>
  );
};

export const BatchMonitor = () => {
  const params = useParams<{ id: string; bid: string }>();
  const studyId = Number(params.id);
  const batchId = Number(params.bid);
  const batch = useCall('batches.get', { batchId });
  const study = useCall('studies.get', { studyId });
  const simulated = study.data?.simulated ?? false;
  const profileId = study.data?.profileId ?? null;
  const queue = useCall(
    'queue.state',
    { profileId: profileId ?? 0 },
    { enabled: profileId !== null, staleTime: 0 },
  );
  // What "Needs you" below lists (the same read as that section's), so the sentence counts the same items.
  const needsYou = useNeedsYouCount(studyId, batchId);
  return (
    <div className="page batch-monitor">
      <p className="breadcrumb">
        <Link href={paths.study(studyId).batches}>Batches</Link>
      </p>
      <QueryView q={batch} loading="Loading the batch…">
        {(b) =>
          b.studyId !== studyId ? (
            <ErrorNotice
              error={{
                code: 'NOT_FOUND',
                message: 'This batch belongs to another study.',
                action: 'Open it from its own study’s batches.',
                retryable: false,
              }}
            />
          ) : (
            <>
              <PageHeader
                title={b.label || `Batch ${b.batchId}`}
                badge={simulated ? <SimulatedBadge long /> : undefined}
                subtitle={
                  <>
                    Batch {b.batchId} · created {fmtDateTime(b.createdAt)} · {plural(b.total, 'file')} ·{' '}
                    <Badge tone={batchBadge(b).tone}>{batchBadge(b).label}</Badge>
                  </>
                }
              />
              {study.data?.profileId != null && <QueueBanner profileId={study.data.profileId} />}
              {b.state === 'paused' && b.pauseReason && (
                <Notice tone="warn" title="This batch is paused">
                  {b.pauseReason}
                </Notice>
              )}
              {clockNotice(b) && (
                <Notice tone="info" title="The service's clock differs from this computer's">
                  {clockNotice(b)}
                </Notice>
              )}
              <Section title="Progress">
                <p className="batch-status" role="status">
                  {batchStatus(b, {
                    queuePaused: Boolean(queue.data?.pause),
                    needsYou: needsYou.data?.total,
                    below: true,
                  })}
                </p>
                <BatchBars b={b} />
                <Counts b={b} />
                <BatchControls b={b} />
              </Section>
              <NeedsYou
                studyId={studyId}
                batchId={batchId}
                simulated={simulated}
                failedAnalyses={b.analysesByState.error ?? 0}
              />
              <ReceiptDifferences studyId={studyId} batchId={batchId} />
              <BatchFiles studyId={studyId} batchId={batchId} />
            </>
          )
        }
      </QueryView>
    </div>
  );
};
