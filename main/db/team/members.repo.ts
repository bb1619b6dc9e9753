/**
 * The team's members and sites in a team database: each member a PostgreSQL login in the group role
 * of their Voicescope role, listed in `team_members` with the sites granted in `team_member_sites`.
 * Run by the administrator (a login that may create roles), inside one transaction per change.
 */
import type { TeamRole } from '../../../shared/team';
import type { Queryable } from '../store/types';
import { ident, literal, type GroupRoles } from './names';

export interface TeamSite {
  readonly code: string;
  readonly name: string;
  readonly participants: number;
}

export interface TeamMember {
  readonly login: string;
  readonly role: TeamRole;
  /** The sites granted, as `study/site` (the owner reaches every site). */
  readonly sites: readonly string[];
}

export const loginExists = async (q: Queryable, login: string): Promise<boolean> =>
  (await q.get('SELECT 1 FROM pg_roles WHERE rolname = ?', [login])) !== undefined;

export const memberRole = async (q: Queryable, login: string): Promise<TeamRole | null> =>
  (await q.get<{ role: TeamRole }>('SELECT role FROM team_members WHERE login = ?', [login]))?.role ?? null;

/** The codes among `codes` that are not sites of the study. */
export const unknownSites = async (
  q: Queryable,
  studyId: number,
  codes: readonly string[],
): Promise<string[]> => {
  const known = new Set(
    (await q.all<{ code: string }>('SELECT code FROM study_sites WHERE study_id = ?', [studyId])).map(
      (r) => r.code,
    ),
  );
  return codes.filter((c) => !known.has(c));
};

/**
 * A new login in its role's group. The password goes to the server as a SCRAM verifier, never as
 * itself (CREATE ROLE cannot take a bound value, and a server may log its statements).
 */
export const createMemberLogin = async (
  q: Queryable,
  m: { login: string; role: TeamRole; verifier: string; at: string },
  groups: GroupRoles,
): Promise<void> => {
  await q.run(
    `CREATE ROLE ${ident(m.login)} LOGIN PASSWORD ${literal(m.verifier)} IN ROLE ${ident(groups[m.role])}`,
  );
  await q.run('INSERT INTO team_members (login, role, added_at) VALUES (?, ?, ?)', [m.login, m.role, m.at]);
};

export const grantSites = async (
  q: Queryable,
  login: string,
  studyId: number,
  codes: readonly string[],
): Promise<void> => {
  for (const code of codes)
    await q.run(
      'INSERT INTO team_member_sites (login, study_id, site_code) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
      [login, studyId, code],
    );
};

export const revokeStudySites = async (q: Queryable, login: string, studyId: number): Promise<void> => {
  await q.run('DELETE FROM team_member_sites WHERE login = ? AND study_id = ?', [login, studyId]);
};

export const setMemberRole = async (
  q: Queryable,
  m: { login: string; from: TeamRole; to: TeamRole },
  groups: GroupRoles,
): Promise<void> => {
  await q.run(`REVOKE ${ident(groups[m.from])} FROM ${ident(m.login)}`);
  await q.run(`GRANT ${ident(groups[m.to])} TO ${ident(m.login)}`);
  await q.run('UPDATE team_members SET role = ? WHERE login = ?', [m.to, m.login]);
};

/** The member's row and sites, and their login: they can no longer connect. */
export const removeMember = async (q: Queryable, login: string): Promise<void> => {
  await q.run('DELETE FROM team_members WHERE login = ?', [login]);
  await q.run(`DROP ROLE ${ident(login)}`);
};

export const listMembers = async (q: Queryable): Promise<TeamMember[]> => {
  const rows = await q.all<{ login: string; role: TeamRole; sites: string | null }>(
    `SELECT m.login, m.role,
       (SELECT string_agg(s.name || '/' || g.site_code, ',' ORDER BY s.name, g.site_code)
          FROM team_member_sites g JOIN studies s ON s.id = g.study_id WHERE g.login = m.login) AS sites
     FROM team_members m ORDER BY m.login`,
  );
  return rows.map((r) => ({ login: r.login, role: r.role, sites: r.sites ? r.sites.split(',') : [] }));
};

export const siteExists = async (q: Queryable, studyId: number, code: string): Promise<boolean> =>
  (await q.get('SELECT 1 FROM study_sites WHERE study_id = ? AND code = ?', [studyId, code])) !== undefined;

export const addSite = async (
  q: Queryable,
  s: { studyId: number; code: string; name: string; at: string },
): Promise<void> => {
  await q.run('INSERT INTO study_sites (study_id, code, name, created_at) VALUES (?, ?, ?, ?)', [
    s.studyId,
    s.code,
    s.name,
    s.at,
  ]);
};

export const listSites = async (q: Queryable, studyId: number): Promise<TeamSite[]> =>
  q.all<TeamSite>(
    `SELECT s.code, s.name,
       (SELECT count(*) FROM participants p WHERE p.study_id = s.study_id AND p.site_code = s.code) AS participants
     FROM study_sites s WHERE s.study_id = ? ORDER BY s.code COLLATE "C"`,
    [studyId],
  );

/** Each study table's columns, in order (the column GRANTs name them). */
export const tableColumns = async (q: Queryable): Promise<Map<string, string[]>> => {
  const rows = await q.all<{ tbl: string; name: string }>(
    `SELECT table_name AS tbl, column_name AS name FROM information_schema.columns
     WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
  );
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(r.tbl, [...(out.get(r.tbl) ?? []), r.name]);
  return out;
};

/** The sites of a study granted to the login the workstation is connected as (none for the owner). */
export const sitesGrantedToMe = async (q: Queryable, studyId: number): Promise<string[]> =>
  (
    await q.all<{ site_code: string }>(
      'SELECT site_code FROM team_member_sites WHERE login = current_user AND study_id = ? ORDER BY site_code',
      [studyId],
    )
  ).map((r) => r.site_code);
