import { lazyScreen } from '../../app/lazy-screen';
import { patterns, type FeatureRoute } from '../../app/paths';

export const studyRoutes: readonly FeatureRoute[] = [
  [
    patterns.studies,
    lazyScreen(
      () => import('./StudiesPage'),
      (m) => m.StudiesPage,
    ),
  ],
  [
    patterns.newStudy,
    lazyScreen(
      () => import('./NewStudyPage'),
      (m) => m.NewStudyPage,
    ),
  ],
  [
    patterns.newStudyFor,
    lazyScreen(
      () => import('./NewStudyPage'),
      (m) => m.NewStudyPage,
    ),
  ],
  [
    patterns.study,
    lazyScreen(
      () => import('./StudyOverview'),
      (m) => m.StudyOverview,
    ),
  ],
];
