import { ok } from '../../../shared/result';
import type { appContract } from '../../../shared/contract/app.contract';
import type { HandlersOf } from '../router';
import type { HostDeps } from './deps';

export const appHandlers = (d: HostDeps): HandlersOf<typeof appContract> => ({
  'app.info': async () => ok({ ...d.info, firstRun: (await d.service.listProfiles()).length === 0 }),
});
