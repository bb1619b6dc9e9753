import type { FeatureRoute } from '../../app/routes';

export const participantRoutes: readonly FeatureRoute[] = [];
