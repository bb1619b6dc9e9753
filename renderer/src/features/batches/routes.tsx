import type { FeatureRoute } from '../../app/routes';

export const batchRoutes: readonly FeatureRoute[] = [];
