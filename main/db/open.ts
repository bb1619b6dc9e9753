/**
 * Opens a study database: WAL journal, foreign keys on, a busy timeout, and every pending migration
 * applied in one transaction before anything else touches it.
 */
import Database from 'better-sqlite3';
import { migrate, type MigrationReport } from './migrate';
import { MIGRATIONS } from './migrations';

export type Db = Database.Database;

export interface OpenedDb {
  readonly db: Db;
  readonly migration: MigrationReport;
}

export const openStudyDb = (path: string): OpenedDb => {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // WAL with synchronous=NORMAL is durable across application crashes; only an OS crash or power loss
  // can drop the last transactions, never corrupt the file (SQLite documentation, "WAL mode").
  db.pragma('synchronous = NORMAL');
  const migration = migrate(db, MIGRATIONS);
  return { db, migration };
};
