/**
 * PostgreSQL through `pg`: a pool of connections; each transaction runs on one client of the pool,
 * SERIALIZABLE, and a repeatable one is retried after a conflict abort (./retry.ts).
 */
import pg from 'pg';
import { BEGIN_TRANSACTION, NUMBER_TYPES, pgSession, type RawQuery } from './pg-session';
import { withConflictRetry } from './retry';
import type { Queryable, SqlValue, Store } from './types';

const typeParser = (oid: number, format?: string): ((value: string) => unknown) =>
  NUMBER_TYPES.includes(oid) ? Number : pg.types.getTypeParser(oid, format as 'text');

/** Pool settings every Voicescope pool uses: numbers parsed as SQLite gives them. */
export const POOL_DEFAULTS: Partial<pg.PoolConfig> = {
  types: { getTypeParser: typeParser as typeof pg.types.getTypeParser },
};

const clientQuery =
  (client: pg.ClientBase): RawQuery =>
  async (text, params) => {
    const r = await client.query(text, params as unknown[]);
    return { rows: r.rows, changes: r.rowCount ?? 0 };
  };

async function* iterateOnOwnClient<Row>(
  pool: pg.Pool,
  sql: string,
  params?: readonly SqlValue[],
): AsyncIterable<Row> {
  const client = await pool.connect();
  let failure: Error | undefined;
  try {
    yield* pgSession(clientQuery(client), () => false).iterate<Row>(sql, params);
  } catch (e) {
    failure = e as Error;
    throw e;
  } finally {
    client.release(failure);
  }
}

const attemptTransaction = async <T>(
  pool: pg.Pool,
  fn: (tx: Queryable) => Promise<T>,
  begin = BEGIN_TRANSACTION,
): Promise<T> => {
  const client = await pool.connect();
  let open = true;
  let broken: Error | undefined;
  const query = clientQuery(client);
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
    client.release(broken);
  }
};

/** A transaction that only appends under a lock (TransactionOptions.appendsUnderLock). */
const BEGIN_READ_COMMITTED = 'BEGIN ISOLATION LEVEL READ COMMITTED';

/** A snapshot (Store.snapshot): one view of the database, on a client of its own, holding no one up. */
const BEGIN_SNAPSHOT = 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY';

export const pgStore = (pool: pg.Pool): Store => {
  let ended = false;
  const outside = pgSession(
    async (text, params) => {
      const r = await pool.query(text, params as unknown[]);
      return { rows: r.rows, changes: r.rowCount ?? 0 };
    },
    () => false,
  );
  return {
    engine: 'postgres',
    ...outside,
    iterate: <Row>(sql: string, params?: readonly SqlValue[]) => iterateOnOwnClient<Row>(pool, sql, params),
    transaction: (fn, options) =>
      withConflictRetry(
        () =>
          attemptTransaction(pool, fn, options?.appendsUnderLock ? BEGIN_READ_COMMITTED : BEGIN_TRANSACTION),
        options?.repeatable === true,
      ),
    snapshot: (fn) => attemptTransaction(pool, fn, BEGIN_SNAPSHOT),
    get open() {
      return !ended;
    },
    close: () => {
      ended = true;
      return pool.end();
    },
  };
};

export const openPgStore = (config: pg.PoolConfig): Store =>
  pgStore(new pg.Pool({ ...POOL_DEFAULTS, ...config }));
