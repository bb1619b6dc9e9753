/**
 * The engine the handler and service suites run on: the workspace's SQLite file by default, or an
 * in-process PostgreSQL (PGlite, migrated) when `VOICESCOPE_TEST_ENGINE=pglite`, the same suites
 * proving the same behaviour on both engines (docs/testing.md).
 */
import { afterEach } from 'vitest';
import { ok } from '../../shared/result';
import type { StudyOpener } from '../../main/services/open-study-service';
import type { StudyServiceOptions } from '../../main/services/service-context';
import type { StudyService } from '../../main/services/study-service';
import { sqliteStore } from '../../main/db/store/sqlite-store';
import type { Queryable, SqlValue, Store, TransactionOptions } from '../../main/db/store/types';
import { freshStudyDb } from './fresh-study-db';

// Loaded when first used: the study service and PGlite take seconds to load, and a suite that needs
// neither (a repository or export suite on SQLite) does not wait for them.
const services = () => import('../../main/services/study-service');
const lentPglite = async () => (await import('./pglite')).lentPglite();

export type TestEngine = 'sqlite' | 'pglite';

export const testEngine = (): TestEngine =>
  process.env['VOICESCOPE_TEST_ENGINE'] === 'pglite' ? 'pglite' : 'sqlite';

/** A statement the engine refused, printed with its values (`VS_DEBUG_SQL=1`): what failed on PGlite. */
const printingRefused = <Q extends Queryable>(q: Q): Q => {
  const said = (method: 'all' | 'get' | 'run') => async (sql: string, params?: readonly SqlValue[]) => {
    try {
      return await q[method](sql, params);
    } catch (e) {
      console.error(`refused by ${q.dialect.name}: ${sql} ${JSON.stringify(params ?? [])}: ${String(e)}`);
      throw e;
    }
  };
  return Object.assign(Object.create(q) as Q, { all: said('all'), get: said('get'), run: said('run') });
};

const printingStore = (store: Store): Store =>
  Object.assign(printingRefused(store), {
    transaction: <T>(fn: (tx: Queryable) => Promise<T>, o?: TransactionOptions) =>
      store.transaction((tx) => fn(printingRefused(tx)), o),
    snapshot: <T>(fn: (q: Queryable) => Promise<T>) => store.snapshot((q) => fn(printingRefused(q))),
  });

const debugged = (store: Store): Store => (process.env['VS_DEBUG_SQL'] ? printingStore(store) : store);

/** Opens the study service on a fresh, migrated PGlite (one connection, in this process). */
export const openOnPglite: StudyOpener = async (o) => {
  const store = debugged(await lentPglite());
  const { studyServiceOn, workspaceKeys } = await services();
  const { openWorkspace } = await import('../../main/workspace/workspace');
  const workspace = openWorkspace(o.workspaceDir);
  const service = studyServiceOn(store, workspace, workspaceKeys(workspace, o), o, null);
  return ok({ service, db: null, where: 'PGlite (in this process)', notice: null });
};

/** The opener for the engine this run tests (undefined: the host's default, the workspace's file). */
export const testStudyOpener = (): StudyOpener | undefined =>
  testEngine() === 'pglite' ? openOnPglite : undefined;

/**
 * The study service on the engine this run tests, for the service-level suites: the workspace's
 * SQLite file, or a fresh PGlite (the workspace folder still holds the keys and the files).
 */
export const openTestStudyService = async (o: StudyServiceOptions): Promise<StudyService> => {
  if (testEngine() === 'sqlite') return (await services()).openStudyService(o);
  const opened = await openOnPglite(o);
  if (!opened.ok) throw new Error(opened.error);
  return opened.value.service;
};

/** A fresh, migrated study store on the engine this run tests (SQLite in memory, or PGlite). */
export const openTestStore = async (): Promise<Store> =>
  testEngine() === 'pglite' ? debugged(await lentPglite()) : sqliteStore(freshStudyDb());

/** A test's own store (`open()`), closed after that test: call once at a file's top level. */
export const storePerTest = (): { open: () => Promise<Store> } => {
  let opened: Store | undefined;
  afterEach(async () => {
    await opened?.close();
    opened = undefined;
  });
  return { open: async () => (opened = await openTestStore()) };
};
