import { lazyScreen } from '../../app/lazy-screen';
import { patterns, type FeatureRoute } from '../../app/paths';

export const settingsRoutes: readonly FeatureRoute[] = [
  [
    patterns.settings,
    lazyScreen(
      () => import('./SettingsPage'),
      (m) => m.SettingsPage,
    ),
  ],
];
