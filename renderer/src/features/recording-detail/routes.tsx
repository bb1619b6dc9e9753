import { patterns, type FeatureRoute } from '../../app/paths';
import { RecordingDetailPage } from './RecordingDetailPage';

export const recordingDetailRoutes: readonly FeatureRoute[] = [[patterns.recording, RecordingDetailPage]];
