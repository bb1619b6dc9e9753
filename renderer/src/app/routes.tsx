/** Every screen's address. Each feature folder exports its own routes, so features are added without touching each other. */
import { batchRoutes } from '../features/batches/routes';
import { changeRoutes } from '../features/change/routes';
import { designRoutes } from '../features/design/routes';
import { cohortRoutes } from '../features/cohort/routes';
import { exportRoutes } from '../features/exports/routes';
import { importRoutes } from '../features/import/routes';
import { participantRoutes } from '../features/participants/routes';
import { privacyRoutes } from '../features/privacy/routes';
import { recordingDetailRoutes } from '../features/recording-detail/routes';
import { recordingRoutes } from '../features/recordings/routes';
import { settingsRoutes } from '../features/settings/routes';
import { setupRoutes } from '../features/setup/routes';
import { studyRoutes } from '../features/studies/routes';
import { usageRoutes } from '../features/usage/routes';
import type { FeatureRoute } from './paths';

export const featureRoutes: readonly FeatureRoute[] = [
  ...setupRoutes,
  ...studyRoutes,
  ...participantRoutes,
  ...cohortRoutes,
  ...recordingRoutes,
  ...recordingDetailRoutes,
  ...importRoutes,
  ...batchRoutes,
  ...exportRoutes,
  ...designRoutes,
  ...usageRoutes,
  ...settingsRoutes,
  ...privacyRoutes,
  ...changeRoutes,
];
