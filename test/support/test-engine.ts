/**
 * The engine the handler and service suites run on: the workspace's SQLite file by default, or an
 * in-process PostgreSQL (PGlite, migrated) when `VOICESCOPE_TEST_ENGINE=pglite`, the same suites
 * proving the same behaviour on both engines (docs/testing.md).
 */
import { ok } from '../../shared/result';
import type { StudyOpener } from '../../main/services/open-study-service';
import type { StudyServiceOptions } from '../../main/services/service-context';
import {
  openStudyService,
  studyServiceOn,
  workspaceKeys,
  type StudyService,
} from '../../main/services/study-service';
import { openWorkspace } from '../../main/workspace/workspace';
import { sqliteStore } from '../../main/db/store/sqlite-store';
import type { Store } from '../../main/db/store/types';
import { freshStudyDb } from './fresh-study-db';
import { migratedPglite } from './pglite';

export type TestEngine = 'sqlite' | 'pglite';

export const testEngine = (): TestEngine =>
  process.env['VOICESCOPE_TEST_ENGINE'] === 'pglite' ? 'pglite' : 'sqlite';

/** Opens the study service on a fresh, migrated PGlite (one connection, in this process). */
export const openOnPglite: StudyOpener = async (o) => {
  const { store } = await migratedPglite();
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
  if (testEngine() === 'sqlite') return openStudyService(o);
  const opened = await openOnPglite(o);
  if (!opened.ok) throw new Error(opened.error);
  return opened.value.service;
};

/** A fresh, migrated study store on the engine this run tests (SQLite in memory, or PGlite). */
export const openTestStore = async (): Promise<Store> =>
  testEngine() === 'pglite' ? (await migratedPglite()).store : sqliteStore(freshStudyDb());
