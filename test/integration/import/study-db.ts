/** An in-memory study database with one service profile and study 1, for import tests. */
import { openStudyDb, type Db } from '../../../main/db/open';
import { sqliteStore } from '../../../main/db/store/sqlite-store';
import type { ImportDb } from '../../../main/import/import-plan';

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
