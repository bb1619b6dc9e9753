import { lazyScreen } from '../../app/lazy-screen';
import { patterns, type FeatureRoute } from '../../app/paths';

export const privacyRoutes: readonly FeatureRoute[] = [
  [
    patterns.studyData,
    lazyScreen(
      () => import('./StudyDataPage'),
      (m) => m.StudyDataPage,
    ),
  ],
  [
    patterns.privacy,
    lazyScreen(
      () => import('./PrivacyPage'),
      (m) => m.PrivacyPage,
    ),
  ],
  [
    patterns.audit,
    lazyScreen(
      () => import('./AuditPage'),
      (m) => m.AuditPage,
    ),
  ],
  [
    patterns.deletedStudy,
    lazyScreen(
      () => import('./StudyDataPage'),
      (m) => m.DeletedStudyPage,
    ),
  ],
];
