/**
 * Who the workstation is connected as, read from the server: a superuser, the owner of the study
 * tables, a team member (and their role), or a login of a study database that is not a team's.
 */
import type { Queryable } from '../store/types';

export interface LoginFacts {
  readonly login: string;
  readonly superuser: boolean;
  /** The login may create roles (it can run `team init` and manage members). */
  readonly createsRoles: boolean;
  /** The login owns the study tables, or is a member of the role that does. */
  readonly ownsSchema: boolean;
  /** The database has been made a team database (`team init`). */
  readonly team: boolean;
  /** The login's row in `team_members`, when it has one. */
  readonly role: string | null;
}

export const loginFacts = async (q: Queryable): Promise<LoginFacts> => {
  const r = await q.get<{
    login: string;
    superuser: boolean;
    creates_roles: boolean;
    owns_schema: boolean | null;
    team: boolean;
  }>(
    `SELECT current_user::text AS login, r.rolsuper AS superuser, (r.rolsuper OR r.rolcreaterole) AS creates_roles,
       (SELECT pg_has_role(current_user, c.relowner, 'MEMBER') FROM pg_class c
         WHERE c.oid = to_regclass('participants')) AS owns_schema,
       to_regclass('team_members') IS NOT NULL AS team
     FROM pg_roles r WHERE r.rolname = current_user`,
  );
  const role = r!.team
    ? ((await q.get<{ role: string }>('SELECT role FROM team_members WHERE login = current_user'))?.role ??
      null)
    : null;
  return {
    login: r!.login,
    superuser: r!.superuser,
    createsRoles: r!.creates_roles,
    ownsSchema: r!.owns_schema === true,
    team: r!.team,
    role,
  };
};
