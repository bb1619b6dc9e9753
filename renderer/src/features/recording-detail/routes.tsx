import { lazyScreen } from '../../app/lazy-screen';
import { patterns, type FeatureRoute } from '../../app/paths';

export const recordingDetailRoutes: readonly FeatureRoute[] = [
  [
    patterns.recording,
    lazyScreen(
      () => import('./RecordingDetailPage'),
      (m) => m.RecordingDetailPage,
    ),
  ],
];
