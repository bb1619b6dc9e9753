/**
 * The participant page's lazily loaded screen, apart from the route table so that both the table and
 * the participants list (which preloads it) import it from below.
 */
import { lazyScreen, preloadScreen } from '../../app/lazy-screen';

export const participantPage = lazyScreen(
  () => import('./ParticipantPage'),
  (m) => m.ParticipantPage,
);

/**
 * Starts fetching the participant page's code (its charts and uPlot, the largest of the screens a
 * researcher opens again and again) where a participant is likely to be opened next: the list shows it.
 */
export const preloadParticipantPage = (): void => preloadScreen(participantPage);
