import { lazyScreen } from '../../app/lazy-screen';
import { patterns, type FeatureRoute } from '../../app/paths';

export const setupRoutes: readonly FeatureRoute[] = [
  [
    patterns.setup,
    lazyScreen(
      () => import('./FirstRun'),
      (m) => m.FirstRun,
    ),
  ],
];
