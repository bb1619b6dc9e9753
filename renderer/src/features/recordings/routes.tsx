import { patterns, type FeatureRoute } from '../../app/paths';
import { RecordingsPage } from './RecordingsPage';

export const recordingRoutes: readonly FeatureRoute[] = [
  [patterns.recordings, RecordingsPage],
  [patterns.recordingsFiltered, RecordingsPage],
];
