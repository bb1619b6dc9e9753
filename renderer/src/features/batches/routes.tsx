import { lazyScreen } from '../../app/lazy-screen';
import { patterns, type FeatureRoute } from '../../app/paths';

export const batchRoutes: readonly FeatureRoute[] = [
  [
    patterns.batches,
    lazyScreen(
      () => import('./BatchesPage'),
      (m) => m.BatchesPage,
    ),
  ],
  [
    patterns.batch,
    lazyScreen(
      () => import('./BatchMonitor'),
      (m) => m.BatchMonitor,
    ),
  ],
];
