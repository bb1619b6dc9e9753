import type { FeatureRoute } from '../../app/routes';
import { RecordingsPage } from './RecordingsPage';

export const recordingRoutes: readonly FeatureRoute[] = [
  ['/studies/:id/recordings', RecordingsPage],
  ['/studies/:id/recordings/filter/:filter', RecordingsPage],
];
