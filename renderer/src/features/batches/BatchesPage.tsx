/**
 * A study's batches, newest first: each one's state, its upload and analysis bars, what needs the
 * researcher, and a link to its monitor. The queue-wide pause, if any, is said at the top.
 */
import { Link, useParams } from 'wouter';
import { Badge, SimulatedBadge } from '../../components/Badges';
import { Empty, ErrorNotice, QueryView } from '../../components/Feedback';
import { PageHeader } from '../../components/Page';
import { BatchBars, batchFigures } from '../../components/Progress';
import { useCall } from '../../lib/api';
import { agree, fmtDateTime, fmtInt, plural } from '../../lib/format';
import { ANALYSIS_LABEL } from '../../lib/labels';
import { batchStatus } from './batch-status';
import { BatchTitle } from './BatchTitle';
import { QueueBanner } from './QueueBanner';
import { paths } from '../../app/paths';

export const BatchesPage = () => {
  const studyId = Number(useParams<{ id: string }>().id);
  const study = useCall('studies.get', { studyId });
  const batches = useCall('batches.list', { studyId });
  const profileId = study.data?.profileId ?? null;
  const queue = useCall(
    'queue.state',
    { profileId: profileId ?? 0 },
    { enabled: profileId !== null, staleTime: 0 },
  );
  return (
    <div className="page">
      <PageHeader
        title="Batches"
        badge={study.data?.simulated ? <SimulatedBadge long /> : undefined}
        subtitle={study.data ? <>{study.data.name} · every import is a batch</> : undefined}
        actions={
          <Link className="button primary" href={paths.study(studyId).import}>
            Import recordings
          </Link>
        }
      />
      {study.error && <ErrorNotice error={study.error.appError} onRetry={() => void study.refetch()} />}
      {study.data?.profileId != null && <QueueBanner profileId={study.data.profileId} />}
      <QueryView q={batches} loading="Loading batches…">
        {(list) =>
          list.length === 0 ? (
            <Empty title="No batch yet">
              <Link href={paths.study(studyId).import}>Import a folder of recordings</Link> to create the
              first.
            </Empty>
          ) : (
            <ul className="batch-list batch-cards">
              {[...list].reverse().map((b) => {
                const f = batchFigures(b);
                return (
                  <li key={b.batchId} className="card">
                    <BatchTitle studyId={studyId} b={b} />
                    <p className="muted small">
                      Batch {b.batchId} · {fmtDateTime(b.createdAt)} · {plural(b.total, 'file')} ·{' '}
                      {b.analyses.map((a) => ANALYSIS_LABEL[a]).join(', ')}
                    </p>
                    <BatchBars b={b} />
                    <p className="small">{batchStatus(b, { queuePaused: Boolean(queue.data?.pause) })}</p>
                    {f.attention > 0 && (
                      <p>
                        <Link href={paths.study(studyId).batch(b.batchId)}>
                          <Badge tone="bad">{fmtInt(f.attention)}</Badge>{' '}
                          {agree(f.attention, 'needs', 'need')} you
                        </Link>
                      </p>
                    )}
                  </li>
                );
              })}
            </ul>
          )
        }
      </QueryView>
    </div>
  );
};
