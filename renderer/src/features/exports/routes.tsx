import { patterns, type FeatureRoute } from '../../app/paths';
import { ExportPage } from './ExportPage';

export const exportRoutes: readonly FeatureRoute[] = [[patterns.export, ExportPage]];
