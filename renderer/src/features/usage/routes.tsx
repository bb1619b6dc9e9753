import { lazyScreen } from '../../app/lazy-screen';
import { patterns, type FeatureRoute } from '../../app/paths';

export const usageRoutes: readonly FeatureRoute[] = [
  [
    patterns.usage,
    lazyScreen(
      () => import('./UsagePage'),
      (m) => m.UsagePage,
    ),
  ],
];
