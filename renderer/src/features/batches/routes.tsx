import type { FeatureRoute } from '../../app/routes';
import { BatchesPage } from './BatchesPage';
import { BatchMonitor } from './BatchMonitor';

export const batchRoutes: readonly FeatureRoute[] = [
  ['/studies/:id/batches', BatchesPage],
  ['/studies/:id/batches/:bid', BatchMonitor],
];
