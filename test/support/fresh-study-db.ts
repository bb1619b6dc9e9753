/**
 * A migrated in-memory study database in a tenth of a millisecond: the first call migrates one with
 * `openStudyDb` (about 50-100 ms, every migration in order), and every call after copies that one from
 * its serialized image, with foreign keys on as `openStudyDb` sets them. For tests that need a fresh,
 * empty study database per run of a property (hundreds of runs), where the migrations are not the
 * subject; the migrations have their own tests (test/integration/db/migrations.test.ts).
 */
import Database from 'better-sqlite3';
import { openStudyDb, type Db } from '../../main/db/open';
import { sqliteStore } from '../../main/db/store/sqlite-store';
import type { Store } from '../../main/db/store/types';

let image: Buffer | undefined;

export const freshStudyDb = (): Db => {
  if (image === undefined) {
    const first = openStudyDb(':memory:').db;
    image = first.serialize();
    first.close();
  }
  const db = new Database(image);
  db.pragma('foreign_keys = ON');
  return db;
};

/** The same fresh database as a study store (./fresh-study-db.ts's image, through the SQLite store). */
export const freshStudyStore = (): Store => sqliteStore(freshStudyDb());
