import type { FeatureRoute } from '../../app/routes';
import { RecordingDetailPage } from './RecordingDetailPage';

export const recordingDetailRoutes: readonly FeatureRoute[] = [
  ['/studies/:id/recordings/:rid', RecordingDetailPage],
];
