import type { FeatureRoute } from '../../app/routes';

export const recordingRoutes: readonly FeatureRoute[] = [];
