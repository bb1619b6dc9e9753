import { lazyScreen } from '../../app/lazy-screen';
import { patterns, type FeatureRoute } from '../../app/paths';

export const changeRoutes: readonly FeatureRoute[] = [
  [
    patterns.changeSettings,
    lazyScreen(
      () => import('./ChangeSettingsPage'),
      (m) => m.ChangeSettingsPage,
    ),
  ],
];
