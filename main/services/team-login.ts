/**
 * Which logins the workstation works as. Everyday work on a PostgreSQL study database is never done as
 * a superuser, and on a team database never as the owner of its tables (the administrator who ran
 * `team init`): row-level security does not bind them, so a workstation connected that way would see
 * and change every site. Each member connects with their own login.
 */
import type { LoginFacts } from '../db/team/login-check';

export const everydayLoginProblem = (f: LoginFacts): string | null => {
  if (f.superuser)
    return `The login ${f.login} is a superuser of the database server, which Voicescope does not use for everyday work (it would bypass every rule). Connect with your own login${f.team ? ' (your team administrator creates it with voicescope team member add)' : ' (one that owns the study database, no superuser)'}.`;
  if (f.team && f.ownsSchema)
    return `The login ${f.login} owns this team study's tables: it is for voicescope team init and team member and site commands only, and would see every site. Connect with your own member login (voicescope team member add --login <you> creates one).`;
  if (f.team && f.role === null)
    return `The login ${f.login} is not a member of this team study. Ask your team administrator to add it (voicescope team member add --login ${f.login}).`;
  return null;
};
