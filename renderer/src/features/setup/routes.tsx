import type { FeatureRoute } from '../../app/routes';
import { FirstRun } from './FirstRun';

export const setupRoutes: readonly FeatureRoute[] = [['/setup', FirstRun]];
