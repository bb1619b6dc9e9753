/**
 * The main-process services behind the window, the same whichever window it is: the study service
 * (database, engine, key store), the built-in sandbox, the event bus and the IPC router with every
 * handler. The Electron shell (main/electron/) and the browser-mode node host (main/node-host.ts) each
 * open one and put their own transport in front of it. No `electron` import here.
 */
import { platform } from 'node:os';
import type { KeyStorageSchema } from '../shared/contract/app.contract';
import type { z } from 'zod';
import type { ScenarioName } from './sandbox/scenario';
import { createEventBus, type EventBus } from './rpc/event-bus';
import { createHandlers } from './rpc/handlers';
import { createRouter, type Router } from './rpc/router';
import { createBuiltinSandbox, type BuiltinSandbox } from './sandbox/builtin-sandbox';
import { createKeyStore } from './workspace/key-store';
import type { KeyVault } from './workspace/key-store';
import { createPlanStore } from './import/plan-store';
import type { StudyService, StudyServiceOptions } from './services/study-service';
import {
  openChosenStudyService,
  openTeamStudyService,
  type OpenedStudyService,
  type StudyOpener,
  type TeamLogin,
} from './services/open-study-service';
import { allowedWork } from './services/team-rights';
import { chooseDatabase, chosenDatabase } from './workspace/database-choice';
import type { TeamSession as TeamSessionView } from '../shared/contract/team.contract';
import type { Dialogs, StudyDatabase } from './rpc/handlers/deps';
import type { Db } from './db/open';
import { err, ok, type Result } from '../shared/result';
import { APP_VERSION } from './app-version';
import type { Logger, RouterLog } from './log';
import { logSourcesFor } from './privacy/log-sources';

export interface AppHostOptions {
  readonly workspaceDir: string;
  /** A PostgreSQL study database's address (`--database`, `VOICESCOPE_DATABASE_URL`); by default the workspace's own file. */
  readonly database?: string | null;
  /** Opens the study service another way (tests: on an in-process PostgreSQL); by default on `database`. */
  readonly openStudy?: StudyOpener;
  readonly mode: 'electron' | 'browser';
  readonly keyStorage: z.infer<typeof KeyStorageSchema>;
  readonly vault?: KeyVault;
  readonly dialogs?: Dialogs;
  /** The built-in sandbox's scenario for this run (tests, demos); otherwise the researcher's saved choice. */
  readonly sandboxScenario?: ScenarioName;
  /** The built-in sandbox's admin token (end-to-end tests inject faults through its admin routes); random otherwise. */
  readonly sandboxAdminToken?: string;
  /** Engine tuning and clock for tests. */
  readonly engine?: Pick<StudyServiceOptions, 'poll' | 'queue' | 'idleRecheckMs' | 'now' | 'client'>;
  readonly log?: RouterLog;
  /** The process's logger (main/log.ts): it is told the keys and codes to keep out, and logs the router's and the bus's failures. */
  readonly logger?: Logger;
}

/**
 * The host. The window can move it to another study database (a team study, or back to the
 * workspace's file): `service`, `sqliteDb` and `sandbox` are then those of the database it works on
 * now, and `router` answers with them.
 */
export interface AppHost {
  readonly router: Router;
  readonly bus: EventBus;
  readonly service: StudyService;
  /** The SQLite handle of a study kept in the workspace's file, for tests that inspect it; null on a server. */
  readonly sqliteDb: Db | null;
  readonly sandbox: BuiltinSandbox;
  close(): Promise<void>;
}

/** Everything behind the window on one study database. */
interface OnDatabase {
  readonly router: Router;
  readonly service: StudyService;
  readonly sqliteDb: Db | null;
  readonly sandbox: BuiltinSandbox;
  /** The team study's address (without the password); null for the workspace's file. */
  readonly address: string | null;
  close(): Promise<void>;
}

interface FirstDatabase {
  readonly opened: OpenedStudyService;
  readonly address: string | null;
  /** Why the team study chosen in the window could not be opened (the study file is open instead). */
  readonly problem: string | null;
}

/**
 * The database to open at start: the one the host was given (`--database`, the environment, a test's
 * opener), else the team study last chosen in the window, else the workspace's file. A chosen team
 * study that cannot be opened leaves the workstation on its file, saying why.
 */
const openFirst = async (
  o: AppHostOptions,
  so: StudyServiceOptions,
): Promise<Result<FirstDatabase, string>> => {
  const given = o.database ?? null;
  if (o.openStudy || given !== null) {
    const opened = await (o.openStudy ?? ((x: StudyServiceOptions) => openChosenStudyService(x, given)))(so);
    return opened.ok
      ? ok({ opened: opened.value, address: given === null ? null : opened.value.where, problem: null })
      : opened;
  }
  const remembered = chosenDatabase(o.workspaceDir);
  if (remembered !== null) {
    const team = await openChosenStudyService(so, remembered);
    if (team.ok) return ok({ opened: team.value, address: team.value.where, problem: null });
    const local = await openChosenStudyService(so, null);
    if (!local.ok) return local;
    return ok({
      opened: local.value,
      address: null,
      problem: `The team study chosen earlier (${remembered}) could not be opened, so this computer's own study is open. ${team.error}`,
    });
  }
  const local = await openChosenStudyService(so, null);
  return local.ok ? ok({ opened: local.value, address: null, problem: null }) : local;
};

/** What the window is told about the database it works on and the member's role there. */
const sessionOf = (at: OnDatabase, problem: string | null): TeamSessionView => {
  const member = at.service.member;
  return {
    database: at.address === null ? 'local' : 'team',
    address: at.address,
    login: member?.login ?? null,
    role: member?.role ?? null,
    allowed: allowedWork(member),
    problem,
  };
};

/** The host, or why its study database cannot be opened (in the researcher's words). */
export const openAppHost = async (o: AppHostOptions): Promise<Result<AppHost, string>> => {
  const bus = createEventBus(o.logger ? (m, d) => o.logger!.error(m, d) : undefined);
  const so: StudyServiceOptions = {
    workspaceDir: o.workspaceDir,
    ...(o.vault ? { vault: o.vault } : {}),
    ...o.engine,
    onEvent: (e) => {
      // A lost or restored study database connection goes to the log too, in the words the window shows.
      if (e.type === 'database-connection') o.logger?.warn(`database connection ${e.state}: ${e.message}`);
      bus.publish('engine', e);
    },
  };
  const first = await openFirst(o, so);
  if (!first.ok) return first;
  if (first.value.opened.notice !== null) o.logger?.announce(first.value.opened.notice);
  let problem = first.value.problem;
  // One move at a time: a second waits for the first to finish.
  let moving: Promise<unknown> = Promise.resolve();
  const moveTo = (
    open: () => Promise<Result<OpenedStudyService, string>>,
    address: (opened: OpenedStudyService) => string | null,
  ): Promise<Result<TeamSessionView, string>> => {
    const move = moving.then(async (): Promise<Result<TeamSessionView, string>> => {
      const opened = await open();
      if (!opened.ok) return err(opened.error);
      const next = await hostOn(opened.value, address(opened.value), bus, o, database);
      const previous = current;
      current = next;
      problem = null;
      chooseDatabase(o.workspaceDir, next.address);
      await previous.close();
      return ok(sessionOf(current, problem));
    });
    moving = move.catch(() => undefined);
    return move;
  };
  const database: StudyDatabase = {
    session: () => sessionOf(current, problem),
    useTeam: (login: TeamLogin) =>
      moveTo(
        () => openTeamStudyService(so, login),
        (opened) => opened.where,
      ),
    useLocal: () =>
      moveTo(
        () => openChosenStudyService(so, null),
        () => null,
      ),
  };
  let current = await hostOn(first.value.opened, first.value.address, bus, o, database);
  return ok({
    router: { handle: (method, input, ctx) => current.router.handle(method, input, ctx) },
    bus,
    get service() {
      return current.service;
    },
    get sqliteDb() {
      return current.sqliteDb;
    },
    get sandbox() {
      return current.sandbox;
    },
    close: () => current.close(),
  });
};

/**
 * The built-in sandbox listens on a new port each launch: its profiles are moved there before the
 * engine starts. Only a login that may change profiles does it (a team study's owner, or anyone on a
 * study of their own).
 */
const moveSandboxProfiles = async (service: StudyService, sandbox: BuiltinSandbox): Promise<void> => {
  const builtin = sandbox.profileIds();
  if (builtin.length === 0 || service.refusalForRole('profiles') !== null) return;
  const url = await sandbox.ensure();
  for (const p of await service.listProfiles()) {
    if (!builtin.includes(p.id)) continue;
    if (p.baseUrl !== url) await service.setProfileAddress(p.id, url);
    // Profiles made before the sandbox had a key of its own held the old fixed key: give them this one.
    if (!(await sandbox.profileHasKey(p.id))) await service.setProfileKey(p.id, sandbox.apiKey);
  }
};

const hostOn = async (
  { service, db }: OpenedStudyService,
  address: string | null,
  bus: EventBus,
  o: AppHostOptions,
  database: StudyDatabase,
): Promise<OnDatabase> => {
  await service.logFacts.load(service.store);
  o.logger?.attach(
    logSourcesFor(service.store, service.logFacts, {
      keysDir: service.workspace.keysDir,
      ...(o.vault ? { vault: o.vault } : {}),
    }),
  );
  const sandbox = await createBuiltinSandbox(service.store, service.workspace.dir, {
    keys: createKeyStore({ keysDir: service.workspace.keysDir, ...(o.vault ? { vault: o.vault } : {}) }),
    ...(o.sandboxScenario ? { scenario: o.sandboxScenario } : {}),
    ...(o.sandboxAdminToken ? { adminToken: o.sandboxAdminToken } : {}),
    keepKey: service.refusalForRole('profiles') === null,
  });
  await moveSandboxProfiles(service, sandbox);
  // Batches whose import asked for a start that a crash interrupted are started now.
  await service.startInterruptedBatches();
  await service.startEngine();
  const now = o.engine?.now ?? Date.now;
  const router = createRouter(
    createHandlers({
      service,
      sandbox,
      bus,
      plans: createPlanStore(),
      dialogs: o.dialogs ?? null,
      now,
      database,
      info: {
        version: APP_VERSION,
        mode: o.mode,
        platform: platform(),
        workspaceDir: service.workspace.dir,
        keyStorage: o.keyStorage,
        capabilities: { nativeDialogs: o.dialogs !== undefined },
      },
    }),
    o.log ?? o.logger,
    { dbPath: service.workspace.dbPath },
  );
  return {
    router,
    service,
    sqliteDb: db,
    sandbox,
    address,
    async close() {
      await service.close();
      await sandbox.close();
    },
  };
};
