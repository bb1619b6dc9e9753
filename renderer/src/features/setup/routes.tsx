import { patterns, type FeatureRoute } from '../../app/paths';
import { FirstRun } from './FirstRun';

export const setupRoutes: readonly FeatureRoute[] = [[patterns.setup, FirstRun]];
