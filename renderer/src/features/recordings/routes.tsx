import { lazyScreen } from '../../app/lazy-screen';
import { patterns, type FeatureRoute } from '../../app/paths';

export const recordingRoutes: readonly FeatureRoute[] = [
  [
    patterns.recordings,
    lazyScreen(
      () => import('./RecordingsPage'),
      (m) => m.RecordingsPage,
    ),
  ],
  [
    patterns.recordingsFiltered,
    lazyScreen(
      () => import('./RecordingsPage'),
      (m) => m.RecordingsPage,
    ),
  ],
];
