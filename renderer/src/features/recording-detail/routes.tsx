import type { FeatureRoute } from '../../app/routes';

export const recordingDetailRoutes: readonly FeatureRoute[] = [];
