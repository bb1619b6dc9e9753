import { patterns, type FeatureRoute } from '../../app/paths';
import { BatchesPage } from './BatchesPage';
import { BatchMonitor } from './BatchMonitor';

export const batchRoutes: readonly FeatureRoute[] = [
  [patterns.batches, BatchesPage],
  [patterns.batch, BatchMonitor],
];
