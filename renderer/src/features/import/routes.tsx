import { patterns, type FeatureRoute } from '../../app/paths';
import { ImportPage } from './ImportPage';

export const importRoutes: readonly FeatureRoute[] = [[patterns.import, ImportPage]];
