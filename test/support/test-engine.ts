/**
 * The engine the handler and service suites run on: the workspace's SQLite file by default, or an
 * in-process PostgreSQL (PGlite, migrated) when `VOICESCOPE_TEST_ENGINE=pglite`, the same suites
 * proving the same behaviour on both engines (docs/testing.md).
 */
import { ok } from '../../shared/result';
import type { StudyOpener } from '../../main/services/open-study-service';
import { studyServiceOn, workspaceKeys } from '../../main/services/study-service';
import { openWorkspace } from '../../main/workspace/workspace';
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
