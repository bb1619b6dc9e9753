import { lazyScreen } from '../../app/lazy-screen';
import { patterns, type FeatureRoute } from '../../app/paths';

export const designRoutes: readonly FeatureRoute[] = [
  [
    patterns.design,
    lazyScreen(
      () => import('./DesignPage'),
      (m) => m.DesignPage,
    ),
  ],
];
