import type { FeatureRoute } from '../../app/routes';
import { NewStudyPage } from './NewStudyPage';
import { StudiesPage } from './StudiesPage';
import { StudyOverview } from './StudyOverview';

export const studyRoutes: readonly FeatureRoute[] = [
  ['/studies', StudiesPage],
  ['/studies/new', NewStudyPage],
  ['/studies/new/:profileId', NewStudyPage],
  ['/studies/:id', StudyOverview],
];
