import { lazyScreen } from '../../app/lazy-screen';
import { patterns, type FeatureRoute } from '../../app/paths';

export const importRoutes: readonly FeatureRoute[] = [
  [
    patterns.import,
    lazyScreen(
      () => import('./ImportPage'),
      (m) => m.ImportPage,
    ),
  ],
];
