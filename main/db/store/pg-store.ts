/**
 * PostgreSQL through `pg`: a pool of connections; each transaction runs on one client of the pool,
 * SERIALIZABLE, and a repeatable one is retried after a conflict abort (./retry.ts). A query that fails
 * because the server went away marks the connection lost until a probe reaches it again
 * (./connection-watch.ts); a connection that breaks while idle in the pool does the same, and never
 * ends the process.
 */
import pg from 'pg';
import { createConnectionWatch, type WatchControl } from './connection-watch';
import { BEGIN_TRANSACTION, NUMBER_TYPES, pgSession, type RawQuery } from './pg-session';
import { withConflictRetry } from './retry';
import type { Queryable, SqlValue, Store } from './types';

const typeParser = (oid: number, format?: string): ((value: string) => unknown) =>
  NUMBER_TYPES.includes(oid) ? Number : pg.types.getTypeParser(oid, format as 'text');

/** Pool settings every Voicescope pool uses: numbers parsed as SQLite gives them. */
export const POOL_DEFAULTS: Partial<pg.PoolConfig> = {
  types: { getTypeParser: typeParser as typeof pg.types.getTypeParser },
};

/** The pool and the watch that every failure of one of its connections is told to. */
interface Watched {
  readonly pool: pg.Pool;
  readonly watch: WatchControl;
}

/** Runs `work`; a failure is told to the watch (which keeps only a lost connection) and passed on. */
const noting = async <T>(w: Watched, work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (e) {
    w.watch.noteFailure(e);
    throw e;
  }
};

const clientQuery =
  (w: Watched, client: pg.ClientBase): RawQuery =>
  async (text, params) => {
    const r = await noting(w, () => client.query(text, params as unknown[]));
    return { rows: r.rows, changes: r.rowCount ?? 0 };
  };

/**
 * A client of the pool, held by the caller: a break between its queries is told to the watch (an
 * unheard 'error' event would end the process); `release` gives it back, or ends it when broken.
 */
const holdClient = async (w: Watched) => {
  const client = await noting(w, () => w.pool.connect());
  const onError = (e: Error) => w.watch.noteFailure(e);
  client.on('error', onError);
  return {
    client,
    release(broken?: Error) {
      client.off('error', onError);
      client.release(broken);
    },
  };
};

async function* iterateOnOwnClient<Row>(
  w: Watched,
  sql: string,
  params?: readonly SqlValue[],
): AsyncIterable<Row> {
  const held = await holdClient(w);
  let failure: Error | undefined;
  try {
    yield* pgSession(clientQuery(w, held.client), () => false).iterate<Row>(sql, params);
  } catch (e) {
    failure = e as Error;
    throw e;
  } finally {
    held.release(failure);
  }
}

const attemptTransaction = async <T>(
  w: Watched,
  fn: (tx: Queryable) => Promise<T>,
  begin = BEGIN_TRANSACTION,
): Promise<T> => {
  const held = await holdClient(w);
  let open = true;
  let broken: Error | undefined;
  const query = clientQuery(w, held.client);
  const guarded: RawQuery = (text, params) => {
    if (!open) throw new Error('This transaction has ended; its handle cannot be used any more.');
    return query(text, params);
  };
  try {
    await query(begin, []);
    const result = await fn(pgSession(guarded, () => true));
    await query('COMMIT', []);
    return result;
  } catch (e) {
    await query('ROLLBACK', []).catch((lost: Error) => (broken = lost));
    throw e;
  } finally {
    open = false;
    held.release(broken);
  }
};

/** A transaction that only appends under a lock (TransactionOptions.appendsUnderLock). */
const BEGIN_READ_COMMITTED = 'BEGIN ISOLATION LEVEL READ COMMITTED';

/** A snapshot (Store.snapshot): one view of the database, on a client of its own, holding no one up. */
const BEGIN_SNAPSHOT = 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY';

export const pgStore = (pool: pg.Pool): Store => {
  let ended = false;
  const poolQuery: RawQuery = async (text, params) => {
    const r = await noting(w, () => pool.query(text, params as unknown[]));
    return { rows: r.rows, changes: r.rowCount ?? 0 };
  };
  const w: Watched = {
    pool,
    watch: createConnectionWatch({ probe: async () => void (await poolQuery('SELECT 1', [])) }),
  };
  // A connection that breaks while idle in the pool (the server restarted, or ended the session).
  pool.on('error', (e) => w.watch.noteFailure(e));
  const outside = pgSession(poolQuery, () => false);
  return {
    engine: 'postgres',
    ...outside,
    iterate: <Row>(sql: string, params?: readonly SqlValue[]) => iterateOnOwnClient<Row>(w, sql, params),
    transaction: (fn, options) =>
      withConflictRetry(
        () => attemptTransaction(w, fn, options?.appendsUnderLock ? BEGIN_READ_COMMITTED : BEGIN_TRANSACTION),
        options?.repeatable === true,
      ),
    snapshot: (fn) => attemptTransaction(w, fn, BEGIN_SNAPSHOT),
    connection: w.watch,
    get open() {
      return !ended;
    },
    close: () => {
      ended = true;
      w.watch.close();
      return pool.end();
    },
  };
};

export const openPgStore = (config: pg.PoolConfig): Store =>
  pgStore(new pg.Pool({ ...POOL_DEFAULTS, ...config }));
