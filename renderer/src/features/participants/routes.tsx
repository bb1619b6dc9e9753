import type { FeatureRoute } from '../../app/routes';
import { ParticipantPage } from './ParticipantPage';
import { ParticipantsPage } from './ParticipantsPage';

export const participantRoutes: readonly FeatureRoute[] = [
  ['/studies/:id/participants', ParticipantsPage],
  ['/studies/:id/participants/filter/:filter', ParticipantsPage],
  ['/studies/:id/participants/:pid', ParticipantPage],
];
