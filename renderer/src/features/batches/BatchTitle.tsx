/** A batch card's title: its label (or number), linking to its monitor, and its state's badge. */
import { Link } from 'wouter';
import type { BatchProgress } from '../../../../shared/study';
import { paths } from '../../app/paths';
import { Badge } from '../../components/Badges';
import { batchBadge } from './batch-status';

export const BatchTitle = ({ studyId, b }: { studyId: number; b: BatchProgress }) => (
  <p className="card-title">
    <Link href={paths.study(studyId).batch(b.batchId)}>{b.label || `Batch ${b.batchId}`}</Link>{' '}
    <Badge tone={batchBadge(b).tone}>{batchBadge(b).label}</Badge>
  </p>
);
