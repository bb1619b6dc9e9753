/**
 * Opening the study service on the engine the researcher chose: the workspace's own SQLite file (the
 * default), or a PostgreSQL study database named by its address (`--database` or
 * `VOICESCOPE_DATABASE_URL`). The address's password, when it carries one, is moved to the workspace's
 * key store; the address is printed and kept without it. Every reason the database cannot be opened is
 * a value in the researcher's words.
 */
import { err, ok, type Result } from '../../shared/result';
import { DatabaseFromFutureError } from '../db/migrate';
import type { Db } from '../db/open';
import {
  databaseIdentity,
  parseDatabaseAddress,
  passwordKeyName,
  printableAddress,
  settlePassword,
  type DatabaseAddress,
} from '../db/store/address';
import { connectPostgres } from '../db/store/connect';
import { latestStoreVersion, migratePostgres, storeSchemaVersion } from '../db/store/migrate-store';
import { loginFacts } from '../db/team/login-check';
import type { Store } from '../db/store/types';
import { openWorkspace } from '../workspace/workspace';
import type { StudyServiceOptions } from './service-context';
import { everydayLoginProblem } from './team-login';
import type { TeamSession } from './team-rights';
import { isTeamRole, type TeamRole } from '../../shared/team';
import { openStudyService, studyServiceOn, workspaceKeys, type StudyService } from './study-service';

/** The environment variable that names a PostgreSQL study database. */
export const DATABASE_URL_VARIABLE = 'VOICESCOPE_DATABASE_URL';

export interface OpenedStudyService {
  readonly service: StudyService;
  /** The SQLite handle of a study kept in the workspace's file (tests inspect it); null on a server. */
  readonly db: Db | null;
  /** Where the study is kept, without any password: the SQLite file's path or the server's address. */
  readonly where: string;
  /** Something to tell the researcher once (the password was moved to the key store), or null. */
  readonly notice: string | null;
}

/** How a host opens its study service (the options carry its event sink and engine tuning). */
export type StudyOpener = (o: StudyServiceOptions) => Promise<Result<OpenedStudyService, string>>;

/** The address asked for: the option first, then the environment; an empty one is none. */
export const askedDatabase = (option: string | undefined, env: NodeJS.ProcessEnv): string | null =>
  option?.trim() || env[DATABASE_URL_VARIABLE]?.trim() || null;

/**
 * The schema brought up to date, on a login the workstation may work as. A team database's members
 * cannot change its schema: its administrator brings it up with `voicescope team init`.
 */
const migrated = async (
  store: Store,
  address: DatabaseAddress,
): Promise<Result<{ store: Store; member: TeamSession | null }, string>> => {
  try {
    const facts = await loginFacts(store);
    const refused = everydayLoginProblem(facts);
    if (refused !== null) {
      await store.close();
      return err(refused);
    }
    if (facts.team) {
      const current = await teamSchemaCurrent(store);
      if (!current.ok) return current;
      const member = isTeamRole(facts.role ?? '')
        ? { login: facts.login, role: facts.role as TeamRole, database: databaseIdentity(address) }
        : null;
      return ok({ store, member });
    }
    await migratePostgres(store);
    return ok({ store, member: null });
  } catch (e) {
    await store.close().catch(() => undefined);
    if (e instanceof DatabaseFromFutureError)
      return err(
        `This study database was written by a newer Voicescope (schema ${e.found}; this version knows up to ${e.known}). Update Voicescope to open it; nothing in the database was changed.`,
      );
    throw e;
  }
};

/** A team database's schema as this version needs it; a newer one is refused like any database from the future. */
const teamSchemaCurrent = async (store: Store): Promise<Result<Store, string>> => {
  const found = await storeSchemaVersion(store);
  const known = latestStoreVersion();
  if (found > known) throw new DatabaseFromFutureError(found, known);
  if (found === known) return ok(store);
  await store.close();
  return err(
    `This team study's database is at schema ${found} and this Voicescope needs ${known}. Ask your team administrator to run voicescope team init with this version; nothing was changed.`,
  );
};

/** The study service on the chosen engine (`database`: a PostgreSQL address, or null for the workspace's file). */
export const openChosenStudyService = async (
  o: StudyServiceOptions,
  database: string | null,
): Promise<Result<OpenedStudyService, string>> => {
  if (database === null) {
    const { db, ...service } = openStudyService(o);
    return ok({ service, db, where: service.workspace.dbPath, notice: null });
  }
  const parsed = parseDatabaseAddress(database);
  if (!parsed.ok) return parsed;
  const workspace = openWorkspace(o.workspaceDir);
  const keys = workspaceKeys(workspace, o);
  const password = settlePassword(parsed.value, keys);
  if (!password.ok) return password;
  const connected = await connectPostgres(parsed.value.address, password.value.password);
  if (!connected.ok) return err(connected.error.message);
  const store = await migrated(connected.value, parsed.value.address);
  if (!store.ok) return store;
  const where = printableAddress(parsed.value.address);
  return ok({
    service: studyServiceOn(store.value.store, workspace, keys, o, null, store.value.member),
    db: null,
    where,
    notice: password.value.moved
      ? `The database password was moved to the key store. From now on give the address without it: ${where}`
      : null,
  });
};

/** A member's way into a team study, as typed in the window: the password apart from the address. */
export interface TeamLogin {
  readonly address: string;
  readonly login: string;
  readonly password: string;
}

/** The typed address with the member's login in it; an address carrying a password is refused. */
const memberAddress = (typed: string, login: string): Result<DatabaseAddress, string> => {
  let url: URL;
  try {
    url = new URL(typed.trim());
  } catch {
    const parsed = parseDatabaseAddress(typed);
    return parsed.ok ? ok(parsed.value.address) : parsed;
  }
  if (url.password)
    return err(
      'Leave the password out of the address: type it in the password field, from where it goes to the key store.',
    );
  url.username = encodeURIComponent(login.trim());
  const parsed = parseDatabaseAddress(url.toString());
  return parsed.ok ? ok(parsed.value.address) : parsed;
};

/**
 * The study service on a team study, as the member whose login and password the window was given: the
 * server reached, the password accepted, the database a team's, the login one the workstation may work
 * as, the schema this version's. Only then is the password kept in the key store.
 */
export const openTeamStudyService = async (
  o: StudyServiceOptions,
  asked: TeamLogin,
): Promise<Result<OpenedStudyService, string>> => {
  const address = memberAddress(asked.address, asked.login);
  if (!address.ok) return address;
  const connected = await connectPostgres(address.value, asked.password);
  if (!connected.ok) return err(connected.error.message);
  const facts = await loginFacts(connected.value).catch(async (e: unknown) => {
    await connected.value.close();
    throw e;
  });
  if (!facts.team && !facts.superuser) {
    await connected.value.close();
    return err(
      `The database ${address.value.database} on ${address.value.host} is not a team study (its administrator makes it one with voicescope team init). Check the address, or work on this computer's own study.`,
    );
  }
  const store = await migrated(connected.value, address.value);
  if (!store.ok) return store;
  const workspace = openWorkspace(o.workspaceDir);
  const keys = workspaceKeys(workspace, o);
  keys.saveNamed(passwordKeyName(address.value), asked.password);
  return ok({
    service: studyServiceOn(store.value.store, workspace, keys, o, null, store.value.member),
    db: null,
    where: printableAddress(address.value),
    notice: null,
  });
};
