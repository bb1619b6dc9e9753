import { patterns, type FeatureRoute } from '../../app/paths';
import { ChangeSettingsPage } from './ChangeSettingsPage';

export const changeRoutes: readonly FeatureRoute[] = [[patterns.changeSettings, ChangeSettingsPage]];
