/** An in-memory study database with one service profile and study 1, for import tests. */
import { openStudyDb, type Db } from '../../../main/db/open';
import { sqliteStore } from '../../../main/db/store/sqlite-store';
import type { Store } from '../../../main/db/store/types';
import type { ImportDb } from '../../../main/import/import-plan';
import { storePerTest } from '../../support/test-engine';

export const dbWithStudy = () => {
  const { db } = openStudyDb(':memory:');
  db.prepare(
    `INSERT INTO service_profiles (id, name, base_url, api_version, created_at) VALUES (1, 'p', 'http://x', 'v1.3', 'x')`,
  ).run();
  db.prepare(`INSERT INTO studies (id, name, profile_id, created_at) VALUES (1, 's', 1, 'x')`).run();
  return db;
};

/** What the import reads and writes: the study store over the connection, and the study's file. */
export const importDb = (db: Db): ImportDb => ({ store: sqliteStore(db), dbFile: db.name });

/** A fresh study database (./study-db.ts's dbWithStudy) as the import's store and connection. */
export const importDbWithStudy = (): ImportDb => importDb(dbWithStudy());

/** Service profile 1 and study 1, written through the store (either engine). */
const seedStudy = async (store: Store): Promise<void> => {
  await store.run(
    `INSERT INTO service_profiles (id, name, base_url, api_version, created_at) VALUES (1, 'p', 'http://x', 'v1.3', 'x')`,
  );
  await store.run(`INSERT INTO studies (id, name, profile_id, created_at) VALUES (1, 's', 1, 'x')`);
};

/**
 * A test's own study store on the engine this run tests (test/support/test-engine.ts), with study 1, as
 * the import reads and writes it; closed after the test. Call once at a file's top level.
 */
export const importDbPerTest = (): { open: () => Promise<ImportDb & { store: Store }> } => {
  const stores = storePerTest();
  return {
    open: async () => {
      const store = await stores.open();
      await seedStudy(store);
      return { store };
    },
  };
};
