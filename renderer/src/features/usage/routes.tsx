import type { FeatureRoute } from '../../app/routes';
import { UsagePage } from './UsagePage';

export const usageRoutes: readonly FeatureRoute[] = [['/usage', UsagePage]];
