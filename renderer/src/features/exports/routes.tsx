import type { FeatureRoute } from '../../app/routes';

export const exportRoutes: readonly FeatureRoute[] = [];
