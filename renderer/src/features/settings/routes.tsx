import { patterns, type FeatureRoute } from '../../app/paths';
import { SettingsPage } from './SettingsPage';

export const settingsRoutes: readonly FeatureRoute[] = [[patterns.settings, SettingsPage]];
