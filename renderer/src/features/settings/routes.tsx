import type { FeatureRoute } from '../../app/routes';
import { SettingsPage } from './SettingsPage';

export const settingsRoutes: readonly FeatureRoute[] = [['/settings', SettingsPage]];
