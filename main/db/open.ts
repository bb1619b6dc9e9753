/**
 * Opens a study database: WAL journal, foreign keys on, a busy timeout, and every pending migration
 * applied in one transaction before anything else touches it. `tryOpenStudyDb` says why a database
 * cannot be opened (read-only drive, not a database, written by a newer Voicescope…) in the
 * researcher's words instead of throwing.
 */
import { accessSync, closeSync, constants, existsSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { err, ok, type Result } from '../../shared/result';
import { narrowMode, PRIVATE_FILE_MODE, reportNarrowed } from '../file-modes';
import { classifyDbError, type DbProblem } from './db-errors';
import { migrate, type MigrationReport } from './migrate';
import { MIGRATIONS } from './migrations';

export type Db = Database.Database;

export interface OpenedDb {
  readonly db: Db;
  readonly migration: MigrationReport;
}

/** The database file and its WAL and SHM companions, each 0600 (narrowed, and said so, when wider). */
const makePrivate = (path: string) => {
  if (path === ':memory:' || path === '') return;
  reportNarrowed([path, `${path}-wal`, `${path}-shm`].filter((f) => narrowMode(f, PRIVATE_FILE_MODE)));
};

export const openStudyDb = (path: string): OpenedDb => {
  // A new database is created 0600 before SQLite opens it (SQLite gives its companions the same mode).
  if (path !== ':memory:' && path !== '' && !existsSync(path)) {
    try {
      closeSync(openSync(path, 'a', PRIVATE_FILE_MODE));
    } catch {
      /* SQLite says why it cannot create it */
    }
  }
  makePrivate(path);
  const db = new Database(path);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    // WAL with synchronous=NORMAL is durable across application crashes; only an OS crash or power loss
    // can drop the last transactions, never corrupt the file (SQLite documentation, "WAL mode").
    db.pragma('synchronous = NORMAL');
    const migration = migrate(db, MIGRATIONS);
    // Statistics for the query planner, gathered within SQLite's own time limit (its advice for connections
    // that stay open). Only an optimisation: on a read-only or locked file it is skipped, and the queries of
    // large tables name their indexes anyway.
    try {
      db.pragma('optimize = 0x10002');
    } catch {
      /* skipped */
    }
    makePrivate(path);
    return { db, migration };
  } catch (e) {
    db.close();
    throw e;
  }
};

/** Why the folder of `path` cannot be written to, if it cannot (EROFS: a read-only drive; EACCES: permissions). */
const unwritableFolder = (path: string): string | null => {
  try {
    accessSync(dirname(path), constants.W_OK);
    return null;
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    return code === 'EROFS' || code === 'EACCES' || code === 'EPERM' ? code : null;
  }
};

/**
 * openStudyDb, with its failures as researcher-facing problems. SQLite cannot tell "this folder is
 * read-only" from "this file cannot be opened" for a WAL database (both are SQLITE_CANTOPEN, since it
 * must create companion files beside it), so the folder is checked to say which. Errors that are no
 * database problem (a defect) are thrown as before.
 */
export const tryOpenStudyDb = (path: string): Result<OpenedDb, DbProblem> => {
  try {
    return ok(openStudyDb(path));
  } catch (e) {
    const problem = classifyDbError(e, { dbPath: path });
    if (problem === null) throw e;
    if (path !== ':memory:' && (problem.code === 'DB_CANTOPEN' || problem.code === 'DB_READONLY')) {
      const why = unwritableFolder(path);
      if (why !== null) {
        return err({
          ...problem,
          code: 'DB_READONLY',
          message:
            why === 'EROFS'
              ? 'The study database is on a read-only drive, so Voicescope cannot open it for work.'
              : 'Voicescope may not write in the folder of the study database, so it cannot open it for work.',
          action: `Move the workspace to a writable folder, or make ${dirname(path)} writable (a write-protected card or disk, a share mounted read-only, or permissions), then start Voicescope again. The file was not changed.`,
        });
      }
    }
    return err(problem);
  }
};
