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
import type { Dialogs } from './rpc/handlers/deps';
import { createRouter, type Router } from './rpc/router';
import { createBuiltinSandbox, type BuiltinSandbox } from './sandbox/builtin-sandbox';
import { createKeyStore } from './workspace/key-store';
import type { KeyVault } from './workspace/key-store';
import { createPlanStore } from './import/plan-store';
import type { StudyService, StudyServiceOptions } from './services/study-service';
import {
  openChosenStudyService,
  type OpenedStudyService,
  type StudyOpener,
} from './services/open-study-service';
import type { Db } from './db/open';
import { ok, type Result } from '../shared/result';
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

export interface AppHost {
  readonly router: Router;
  readonly bus: EventBus;
  readonly service: StudyService;
  /** The SQLite handle of a study kept in the workspace's file, for tests that inspect it; null on a server. */
  readonly sqliteDb: Db | null;
  readonly sandbox: BuiltinSandbox;
  close(): Promise<void>;
}

/** The host, or why its study database cannot be opened (in the researcher's words). */
export const openAppHost = async (o: AppHostOptions): Promise<Result<AppHost, string>> => {
  const bus = createEventBus(o.logger ? (m, d) => o.logger!.error(m, d) : undefined);
  const open = o.openStudy ?? ((so: StudyServiceOptions) => openChosenStudyService(so, o.database ?? null));
  const opened = await open({
    workspaceDir: o.workspaceDir,
    ...(o.vault ? { vault: o.vault } : {}),
    ...o.engine,
    onEvent: (e) => {
      // A lost or restored study database connection goes to the log too, in the words the window shows.
      if (e.type === 'database-connection') o.logger?.warn(`database connection ${e.state}: ${e.message}`);
      bus.publish('engine', e);
    },
  });
  if (!opened.ok) return opened;
  if (opened.value.notice !== null) o.logger?.announce(opened.value.notice);
  return ok(await hostOn(opened.value, bus, o));
};

const hostOn = async (
  { service, db }: OpenedStudyService,
  bus: EventBus,
  o: AppHostOptions,
): Promise<AppHost> => {
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
  });
  // The built-in sandbox listens on a new port each launch: move its profiles there before the engine starts.
  const builtin = sandbox.profileIds();
  if (builtin.length > 0) {
    const url = await sandbox.ensure();
    for (const p of await service.listProfiles()) {
      if (!builtin.includes(p.id)) continue;
      if (p.baseUrl !== url) await service.setProfileAddress(p.id, url);
      // Profiles made before the sandbox had a key of its own held the old fixed key: give them this one.
      if (!(await sandbox.profileHasKey(p.id))) await service.setProfileKey(p.id, sandbox.apiKey);
    }
  }
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
    bus,
    service,
    sqliteDb: db,
    sandbox,
    async close() {
      await service.close();
      await sandbox.close();
    },
  };
};
