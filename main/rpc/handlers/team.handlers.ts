/** Team studies in the window: the session, the sites the member works at, the workstations, and moving between databases. */
import type { teamContract } from '../../../shared/contract/team.contract';
import { err, ok } from '../../../shared/result';
import { appError } from '../../../shared/rpc';
import type { HandlersOf } from '../router';
import type { HostDeps } from './deps';

const refused = (message: string) =>
  err(appError('REFUSED', message, 'Nothing was changed: the window still works on the same study.'));

export const teamHandlers = (d: HostDeps): HandlersOf<typeof teamContract> => ({
  'team.session': () => ok(d.database.session()),
  'team.sites': async ({ studyId }) => ok({ sites: await d.service.workSites(studyId) }),
  'team.workstations': async ({ studyId }) => ok(await d.service.studyWorkstations(studyId)),
  'team.useDatabase': async (login) => {
    const moved = await d.database.useTeam(login);
    return moved.ok ? moved : refused(moved.error);
  },
  'team.useLocalStudy': async () => {
    const moved = await d.database.useLocal();
    return moved.ok ? moved : refused(moved.error);
  },
});
