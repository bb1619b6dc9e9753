import { lazyScreen } from '../../app/lazy-screen';
import { patterns, type FeatureRoute } from '../../app/paths';

export const exportRoutes: readonly FeatureRoute[] = [
  [
    patterns.export,
    lazyScreen(
      () => import('./ExportPage'),
      (m) => m.ExportPage,
    ),
  ],
];
