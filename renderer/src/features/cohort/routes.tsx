import { lazyScreen } from '../../app/lazy-screen';
import { patterns, type FeatureRoute } from '../../app/paths';

export const cohortRoutes: readonly FeatureRoute[] = [
  [
    patterns.cohort,
    lazyScreen(
      () => import('./CohortPage'),
      (m) => m.CohortPage,
    ),
  ],
];
