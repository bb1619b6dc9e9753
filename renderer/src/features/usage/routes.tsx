import { patterns, type FeatureRoute } from '../../app/paths';
import { UsagePage } from './UsagePage';

export const usageRoutes: readonly FeatureRoute[] = [[patterns.usage, UsagePage]];
