import type { FeatureRoute } from '../../app/routes';

export const importRoutes: readonly FeatureRoute[] = [];
