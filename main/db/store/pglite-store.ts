/**
 * PostgreSQL in-process (PGlite, PostgreSQL compiled to WebAssembly): one connection, so it is shared
 * like SQLite's (./serial-store.ts). It runs the PostgreSQL dialect in `npm test` without a server;
 * what needs several connections (locks, conflicts, TLS) is tested on a real server.
 */
import { PGlite } from '@electric-sql/pglite';
import { BEGIN_TRANSACTION, NUMBER_TYPES, pgSession, type RawQuery } from './pg-session';
import { serialStore } from './serial-store';
import type { Store } from './types';

/** What the store needs of a PGlite (tests lend one out and take it back instead of closing it). */
export type PgliteConnection = Pick<PGlite, 'query' | 'closed' | 'close'>;

export const pgliteStore = (db: PgliteConnection): Store => {
  let inTransaction = false;
  const query: RawQuery = async (text, params) => {
    const r = await db.query(text, params as unknown[]);
    return { rows: r.rows, changes: r.affectedRows ?? 0 };
  };
  const session = pgSession(query, () => inTransaction);
  return serialStore('postgres', {
    ...session,
    begin: async () => {
      await query(BEGIN_TRANSACTION, []);
      inTransaction = true;
    },
    commit: async () => {
      inTransaction = false;
      await query('COMMIT', []);
    },
    rollback: async () => {
      inTransaction = false;
      await query('ROLLBACK', []);
    },
    get open() {
      return !db.closed;
    },
    close: () => db.close(),
  });
};

/**
 * A new in-memory PostgreSQL as a store: empty, or started from a data directory saved with
 * `dumpDataDir` (about a seventh of the processor time of an empty start, which runs initdb).
 */
export const openPgliteStore = async (saved?: Blob): Promise<{ store: Store; db: PGlite }> => {
  const parsers = Object.fromEntries(NUMBER_TYPES.map((oid) => [oid, Number]));
  const db = await PGlite.create(saved ? { parsers, loadDataDir: saved } : { parsers });
  return { store: pgliteStore(db), db };
};
