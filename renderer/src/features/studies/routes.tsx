import { patterns, type FeatureRoute } from '../../app/paths';
import { NewStudyPage } from './NewStudyPage';
import { StudiesPage } from './StudiesPage';
import { StudyOverview } from './StudyOverview';

export const studyRoutes: readonly FeatureRoute[] = [
  [patterns.studies, StudiesPage],
  [patterns.newStudy, NewStudyPage],
  [patterns.newStudyFor, NewStudyPage],
  [patterns.study, StudyOverview],
];
