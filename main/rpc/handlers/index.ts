/** Every handler of the contract, built over the host's services; `Handlers` makes a missing one a type error. */
import type { Handlers } from '../router';
import { acousticsHandlers } from './acoustics.handlers';
import { appHandlers } from './app.handlers';
import { auditHandlers } from './audit.handlers';
import { batchesHandlers } from './batches.handlers';
import { curationHandlers } from './curation.handlers';
import { cohortHandlers } from './cohort.handlers';
import type { HostDeps } from './deps';
import { exportsHandlers } from './exports.handlers';
import { filesHandlers } from './files.handlers';
import { importsHandlers } from './imports.handlers';
import { participantsHandlers } from './participants.handlers';
import { privacyHandlers } from './privacy.handlers';
import { profilesHandlers } from './profiles.handlers';
import { queueHandlers } from './queue.handlers';
import { recordingsHandlers } from './recordings.handlers';
import { sandboxHandlers } from './sandbox.handlers';
import { settingsHandlers } from './settings.handlers';
import { studiesHandlers } from './studies.handlers';
import { teamHandlers } from './team.handlers';
import { timelineHandlers } from './timeline.handlers';
import { reliabilityHandlers } from './reliability.handlers';
import { usageHandlers } from './usage.handlers';
import { visitsHandlers } from './visits.handlers';

export const createHandlers = (d: HostDeps): Handlers => ({
  ...appHandlers(d),
  ...acousticsHandlers(d),
  ...profilesHandlers(d),
  ...studiesHandlers(d),
  ...participantsHandlers(d),
  ...recordingsHandlers(d),
  ...filesHandlers(d),
  ...importsHandlers(d),
  ...batchesHandlers(d),
  ...queueHandlers(d),
  ...timelineHandlers(d),
  ...reliabilityHandlers(d),
  ...usageHandlers(d),
  ...settingsHandlers(d),
  ...sandboxHandlers(d),
  ...privacyHandlers(d),
  ...auditHandlers(d),
  ...exportsHandlers(d),
  ...visitsHandlers(d),
  ...curationHandlers(d),
  ...cohortHandlers(d),
  ...teamHandlers(d),
});
