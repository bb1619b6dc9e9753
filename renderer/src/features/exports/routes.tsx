import type { FeatureRoute } from '../../app/routes';
import { ExportPage } from './ExportPage';

export const exportRoutes: readonly FeatureRoute[] = [['/studies/:id/export', ExportPage]];
