/**
 * The embedded engine: SQLite through better-sqlite3, opened exactly as `openStudyDb` opens it (the
 * same file, pragmas and durability, every pending migration applied). One connection; transactions
 * are BEGIN IMMEDIATE ... COMMIT, one after another (./serial-store.ts).
 */
import Database from 'better-sqlite3';
import { openStudyDb, type OpenedDb } from '../open';
import { stmt } from '../statements';
import { SQLITE } from './dialect';
import { serialStore, type Connection, type SnapshotOpener } from './serial-store';
import type { SqlValue, Store } from './types';
import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * Rows a large result reads at a time. Few enough that a batch is used up before the garbage collector
 * moves it to the old generation (an export allocates several megabytes for each hundred recordings),
 * where it would stay as garbage until the next full collection.
 */
export const ITERATE_BATCH = 100;

const bind = (params: readonly SqlValue[] | undefined) => (params ?? []) as unknown[];

async function* batches<Row>(rows: IterableIterator<unknown>): AsyncIterable<Row> {
  let batch: Row[] = [];
  for (const row of rows) {
    batch.push(row as Row);
    if (batch.length >= ITERATE_BATCH) {
      // Each row let go as it is handed over, so none outlives its use waiting for the batch to end.
      for (let i = 0; i < batch.length; i++) {
        const r = batch[i]!;
        (batch as unknown[])[i] = undefined;
        yield r;
      }
      batch = [];
      // Let other work (timers, the window) run between batches.
      await nextTurn();
    }
  }
  yield* batch;
}

export const sqliteConnection = (db: Database.Database): Connection => ({
  dialect: SQLITE,
  all: async <Row>(sql: string, params?: readonly SqlValue[]) => stmt(db, sql).all(...bind(params)) as Row[],
  get: async <Row>(sql: string, params?: readonly SqlValue[]) =>
    stmt(db, sql).get(...bind(params)) as Row | undefined,
  run: async (sql, params) => ({ changes: stmt(db, sql).run(...bind(params)).changes }),
  iterate: <Row>(sql: string, params?: readonly SqlValue[]) =>
    batches<Row>(stmt(db, sql).iterate(...bind(params))),
  begin: async () => void db.exec('BEGIN IMMEDIATE'),
  commit: async () => void db.exec('COMMIT'),
  rollback: async () => {
    if (db.inTransaction) db.exec('ROLLBACK');
  },
  get open() {
    return db.open;
  },
  close: async () => void db.close(),
});

/**
 * A snapshot of a study file: a read-only connection of its own in one read transaction, so a long
 * read neither waits for the engine's connection nor holds it, and sees the study as it was when it
 * began (WAL keeps that view while the engine writes).
 */
const fileSnapshot =
  (db: Database.Database): SnapshotOpener =>
  async (fn) => {
    const reader = new Database(db.name, { readonly: true, fileMustExist: true });
    try {
      reader.pragma('busy_timeout = 5000');
      // A long read passes each page once: a small page cache does (the engine's connection keeps its own).
      reader.pragma('cache_size = -4000');
      reader.exec('BEGIN');
      return await fn(sqliteConnection(reader));
    } finally {
      if (reader.inTransaction) reader.exec('COMMIT');
      reader.close();
    }
  };

/** A store over an open better-sqlite3 handle (the same one today's synchronous code uses). */
export const sqliteStore = (db: Database.Database): Store => {
  // In memory there is no second connection: the snapshot is a transaction on this one.
  const inMemory = db.memory || db.name === '';
  return serialStore('sqlite', sqliteConnection(db), inMemory ? undefined : fileSnapshot(db));
};

/** Opens (and migrates) a study database file as a store. */
export const openSqliteStore = (path: string): { store: Store; migration: OpenedDb['migration'] } => {
  const { db, migration } = openStudyDb(path);
  return { store: sqliteStore(db), migration };
};
