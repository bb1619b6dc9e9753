/**
 * The PostgreSQL names of a team study: the group role of each Voicescope role (one set per database,
 * so two team databases on one server do not share their roles), and identifiers and literals written
 * into statements that cannot take bound values (CREATE ROLE, GRANT, CREATE POLICY).
 */
import { TEAM_ROLES, type TeamRole } from '../../../shared/team';

/** A quoted identifier: `"name"`, any double quote doubled. */
export const ident = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** A quoted string literal: `'text'`, any single quote doubled. */
export const literal = (text: string): string => `'${text.replace(/'/g, "''")}'`;

/** The group role of a Voicescope role in the team database `database` (e.g. `vs_study_coordinator`). */
export const groupRole = (database: string, role: TeamRole): string =>
  `vs_${database
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .slice(0, 40)}_${role}`;

export type GroupRoles = Readonly<Record<TeamRole, string>>;

export const groupRoles = (database: string): GroupRoles =>
  Object.fromEntries(TEAM_ROLES.map((r) => [r, groupRole(database, r)])) as Record<TeamRole, string>;

/** A team member's login: what PostgreSQL accepts unquoted, so it is typed the same everywhere. */
export const LOGIN_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
