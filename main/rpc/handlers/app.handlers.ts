import { ok } from '../../../shared/result';
import type { appContract } from '../../../shared/contract/app.contract';
import type { HandlersOf } from '../router';
import type { HostDeps } from './deps';

export const appHandlers = (d: HostDeps): HandlersOf<typeof appContract> => ({
  'app.info': () => ok({ ...d.info, firstRun: d.service.listProfiles().length === 0 }),
});
