import { patterns, type FeatureRoute } from '../../app/paths';
import { DesignPage } from './DesignPage';

export const designRoutes: readonly FeatureRoute[] = [[patterns.design, DesignPage]];
