import type { FeatureRoute } from '../../app/routes';
import { ImportPage } from './ImportPage';

export const importRoutes: readonly FeatureRoute[] = [['/studies/:id/import', ImportPage]];
