import { lazyScreen } from '../../app/lazy-screen';
import { patterns, type FeatureRoute } from '../../app/paths';
import { participantPage } from './participant-screen';

export const participantRoutes: readonly FeatureRoute[] = [
  [
    patterns.participants,
    lazyScreen(
      () => import('./ParticipantsPage'),
      (m) => m.ParticipantsPage,
    ),
  ],
  [
    patterns.participantsFiltered,
    lazyScreen(
      () => import('./ParticipantsPage'),
      (m) => m.ParticipantsPage,
    ),
  ],
  [patterns.participant, participantPage],
];
