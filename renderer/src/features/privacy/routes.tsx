import type { FeatureRoute } from '../../app/routes';
import { AuditPage } from './AuditPage';
import { PrivacyPage } from './PrivacyPage';
import { DeletedStudyPage, StudyDataPage } from './StudyDataPage';

export const privacyRoutes: readonly FeatureRoute[] = [
  ['/studies/:id/data', StudyDataPage],
  ['/privacy', PrivacyPage],
  ['/audit', AuditPage],
  ['/deleted-study', DeletedStudyPage],
];
