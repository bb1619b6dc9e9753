import { lazyScreen, preloadScreen } from '../../app/lazy-screen';
import { patterns, type FeatureRoute } from '../../app/paths';

const participantPage = lazyScreen(
  () => import('./ParticipantPage'),
  (m) => m.ParticipantPage,
);

/**
 * Starts fetching the participant page's code (its charts and uPlot, the largest of the screens a
 * researcher opens again and again) where a participant is likely to be opened next: the list shows it.
 */
export const preloadParticipantPage = (): void => preloadScreen(participantPage);

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
