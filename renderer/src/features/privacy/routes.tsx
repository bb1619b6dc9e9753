import { patterns, type FeatureRoute } from '../../app/paths';
import { AuditPage } from './AuditPage';
import { PrivacyPage } from './PrivacyPage';
import { DeletedStudyPage, StudyDataPage } from './StudyDataPage';

export const privacyRoutes: readonly FeatureRoute[] = [
  [patterns.studyData, StudyDataPage],
  [patterns.privacy, PrivacyPage],
  [patterns.audit, AuditPage],
  [patterns.deletedStudy, DeletedStudyPage],
];
