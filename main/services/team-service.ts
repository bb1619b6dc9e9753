/**
 * Setting up and running a team study on PostgreSQL, as its administrator (a login allowed to create
 * roles, never the everyday login of a workstation): `team init` brings the schema up and makes the
 * database a team database (roles, GRANTs, row-level security: main/db/team/), and the member and site
 * commands manage who may reach which site. Every refusal is a value in the researcher's words.
 */
import { err, ok, type Result } from '../../shared/result';
import { isTeamRole, SITE_CODE, TEAM_ROLES, type TeamRole } from '../../shared/team';
import { studyIdByNameOrId } from '../db/repos/studies.repo';
import {
  parseDatabaseAddress,
  printableAddress,
  settlePassword,
  type DatabaseAddress,
} from '../db/store/address';
import { connectPostgres } from '../db/store/connect';
import { migratePostgres } from '../db/store/migrate-store';
import type { Queryable, Store } from '../db/store/types';
import { loginFacts } from '../db/team/login-check';
import { STUDY_TABLES, TEAM_TABLES } from '../db/team/access';
import * as members from '../db/team/members.repo';
import { groupRoles, LOGIN_NAME } from '../db/team/names';
import { scramVerifier } from '../db/team/password-verifier';
import { teamStatements } from '../db/team/policies';
import type { KeyStore } from '../workspace/key-store';
import type { TeamProblem } from './team-problem';
import { exportStudy, importStudy, type StudyMove } from './team-move';

export { TEAM_PROBLEMS, type TeamProblem } from './team-problem';
const problem = (code: TeamProblem['code'], message: string) => err<TeamProblem>({ code, message });

export interface TeamAdmin {
  readonly where: string;
  readonly notice: string | null;
  init(): Promise<Result<{ roles: readonly string[]; tables: number }, TeamProblem>>;
  addSite(s: { study: string; code: string; name: string }): Promise<Result<void, TeamProblem>>;
  listSites(study: string): Promise<Result<members.TeamSite[], TeamProblem>>;
  addMember(m: NewMember): Promise<Result<void, TeamProblem>>;
  setRole(m: {
    login: string;
    role: string;
    study?: string;
    sites?: readonly string[];
  }): Promise<Result<void, TeamProblem>>;
  removeMember(login: string): Promise<Result<void, TeamProblem>>;
  listMembers(): Promise<Result<members.TeamMember[], TeamProblem>>;
  /** Copies a single-user study (a home folder or its study file) into the team database. */
  importStudy(from: string, study: string): Promise<Result<StudyMove, TeamProblem>>;
  /** Writes a team study to a new single-user study file. */
  exportStudy(study: string, to: string): Promise<Result<StudyMove, TeamProblem>>;
  close(): Promise<void>;
}

export interface NewMember {
  readonly login: string;
  readonly role: string;
  readonly password: string;
  readonly study?: string;
  readonly sites?: readonly string[];
}

/** The sites a member of `role` is granted in `study`: none for the owner (every site), some for the others. */
const sitesFor = async (
  tx: Queryable,
  role: TeamRole,
  study: string | undefined,
  sites: readonly string[],
): Promise<Result<{ studyId: number; codes: readonly string[] } | null, TeamProblem>> => {
  if (role === 'owner') return ok(null);
  if (!study || sites.length === 0)
    return problem(
      'INPUT',
      `A ${role} works at one or more sites: name the study (--study) and each site (--site).`,
    );
  const studyId = await studyIdByNameOrId(tx, study);
  if (studyId === null)
    return problem('NOT_FOUND', `There is no study named "${study}" in this team database.`);
  const unknown = await members.unknownSites(tx, studyId, sites);
  if (unknown.length)
    return problem(
      'NOT_FOUND',
      `The study "${study}" has no site ${unknown.join(', ')}. Add it first (voicescope team site add), or see its sites with voicescope team site list.`,
    );
  return ok({ studyId, codes: sites });
};

const adminOf = (
  store: Store,
  address: DatabaseAddress,
  notice: string | null,
  now: () => string,
): TeamAdmin => {
  const groups = groupRoles(address.database);
  const isTeam = async (): Promise<TeamProblem | null> =>
    (await loginFacts(store)).team
      ? null
      : {
          code: 'NOT_TEAM',
          message: 'This database is not a team database yet: run voicescope team init first.',
        };
  const asTeam = async <T>(fn: (tx: Queryable) => Promise<Result<T, TeamProblem>>) => {
    const notTeam = await isTeam();
    return notTeam ? err(notTeam) : store.transaction(fn);
  };
  const studyOf = async (tx: Queryable, study: string) => {
    const id = await studyIdByNameOrId(tx, study);
    return id === null
      ? problem('NOT_FOUND', `There is no study named "${study}" in this team database.`)
      : ok(id);
  };
  return {
    where: printableAddress(address),
    notice,
    async init() {
      await migratePostgres(store);
      const columns = await members.tableColumns(store);
      const statements = teamStatements(address.database, groups, (t) => columns.get(t) ?? []);
      await store.transaction(async (tx) => {
        for (const s of statements) await tx.run(s);
      });
      return ok({
        roles: TEAM_ROLES.map((r) => groups[r]),
        tables: STUDY_TABLES.length + TEAM_TABLES.length,
      });
    },
    addSite: (s) =>
      asTeam(async (tx) => {
        if (!SITE_CODE.test(s.code))
          return problem(
            'INPUT',
            `"${s.code}" cannot be a site's code: use up to 32 lower-case letters, digits and dashes.`,
          );
        if (!s.name.trim()) return problem('INPUT', 'The site needs a name (--name).');
        const studyId = await studyOf(tx, s.study);
        if (!studyId.ok) return studyId;
        if (await members.siteExists(tx, studyId.value, s.code))
          return problem('TAKEN', `The study "${s.study}" already has a site ${s.code}.`);
        await members.addSite(tx, { studyId: studyId.value, code: s.code, name: s.name.trim(), at: now() });
        return ok(undefined);
      }),
    listSites: (study) =>
      asTeam(async (tx) => {
        const studyId = await studyOf(tx, study);
        return studyId.ok ? ok(await members.listSites(tx, studyId.value)) : studyId;
      }),
    addMember: (m) =>
      asTeam(async (tx) => {
        if (!LOGIN_NAME.test(m.login))
          return problem(
            'INPUT',
            `"${m.login}" cannot be a login: use lower-case letters, digits and underscores, starting with a letter.`,
          );
        if (!isTeamRole(m.role))
          return problem('INPUT', `"${m.role}" is not a role: choose ${TEAM_ROLES.join(', ')}.`);
        if (m.password.length < 12)
          return problem('INPUT', 'The member’s password must have at least 12 characters.');
        if (await members.loginExists(tx, m.login))
          return problem(
            'TAKEN',
            `The database server already has a login named ${m.login}. Choose another.`,
          );
        const sites = await sitesFor(tx, m.role, m.study, m.sites ?? []);
        if (!sites.ok) return sites;
        await members.createMemberLogin(
          tx,
          { login: m.login, role: m.role, verifier: scramVerifier(m.password), at: now() },
          groups,
        );
        if (sites.value) await members.grantSites(tx, m.login, sites.value.studyId, sites.value.codes);
        return ok(undefined);
      }),
    setRole: (m) =>
      asTeam(async (tx) => {
        if (!isTeamRole(m.role))
          return problem('INPUT', `"${m.role}" is not a role: choose ${TEAM_ROLES.join(', ')}.`);
        const from = await members.memberRole(tx, m.login);
        if (from === null) return problem('NOT_FOUND', `${m.login} is not a member of this team.`);
        const sites =
          m.study || m.sites?.length ? await sitesFor(tx, m.role, m.study, m.sites ?? []) : ok(null);
        if (!sites.ok) return sites;
        await members.setMemberRole(tx, { login: m.login, from, to: m.role }, groups);
        if (sites.value) {
          await members.revokeStudySites(tx, m.login, sites.value.studyId);
          await members.grantSites(tx, m.login, sites.value.studyId, sites.value.codes);
        }
        return ok(undefined);
      }),
    removeMember: (login) =>
      asTeam(async (tx) => {
        if ((await members.memberRole(tx, login)) === null)
          return problem('NOT_FOUND', `${login} is not a member of this team.`);
        await members.removeMember(tx, login);
        return ok(undefined);
      }),
    listMembers: () => asTeam(async (tx) => ok(await members.listMembers(tx))),
    importStudy: async (from, study) => {
      const notTeam = await isTeam();
      return notTeam ? err(notTeam) : importStudy(store, from, study);
    },
    exportStudy: async (study, to) => {
      const notTeam = await isTeam();
      return notTeam ? err(notTeam) : exportStudy(store, study, to);
    },
    close: () => store.close(),
  };
};

/**
 * The team database named by `database`, connected as its administrator: a login that may create roles
 * (the password from the address once, then from the key store, as for a study database).
 */
export const openTeamAdmin = async (
  database: string,
  keys: KeyStore,
  now: () => string = () => new Date().toISOString(),
): Promise<Result<TeamAdmin, TeamProblem>> => {
  const parsed = parseDatabaseAddress(database);
  if (!parsed.ok) return problem('DATABASE', parsed.error);
  const password = settlePassword(parsed.value, keys);
  if (!password.ok) return problem('DATABASE', password.error);
  const connected = await connectPostgres(parsed.value.address, password.value.password);
  if (!connected.ok) return problem('DATABASE', connected.error.message);
  const store = connected.value;
  const facts = await loginFacts(store);
  if (!facts.createsRoles) {
    await store.close();
    return problem(
      'NOT_ADMIN',
      `The login ${facts.login} may not create logins, so it cannot set up a team or manage its members. Run this as the database's administrator (a login with CREATEROLE), not as a member's everyday login.`,
    );
  }
  const where = printableAddress(parsed.value.address);
  const notice = password.value.moved
    ? `The database password was moved to the key store. From now on give the address without it: ${where}`
    : null;
  return ok(adminOf(store, parsed.value.address, notice, now));
};
