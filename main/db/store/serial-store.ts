/**
 * A store over one connection (SQLite's, PGlite's): every call waits its turn, and a transaction holds
 * the connection from BEGIN to COMMIT or ROLLBACK, so transactions run one after another and a query
 * from outside never lands inside someone else's transaction. A call on the store itself from inside a
 * transaction would wait for that transaction forever: it is refused, naming the handle to use.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { Serial } from './serial';
import type { Queryable, SqlValue, Store, TransactionOptions } from './types';

/** One connection: queries, and the statements that open and close a transaction. */
export interface Connection extends Queryable {
  begin(): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  /** False once the connection was closed, by the store or by its owner. */
  readonly open: boolean;
  close(): Promise<void>;
}

const insideTransaction = new AsyncLocalStorage<Serial>();

/** A handle that works only while its transaction is open. */
const transactionHandle = (conn: Connection, isOpen: () => boolean): Queryable => {
  const check = () => {
    if (!isOpen()) throw new Error('This transaction has ended; its handle cannot be used any more.');
  };
  return {
    dialect: conn.dialect,
    all: (sql, params) => (check(), conn.all(sql, params)),
    get: (sql, params) => (check(), conn.get(sql, params)),
    run: (sql, params) => (check(), conn.run(sql, params)),
    iterate: (sql, params) => (check(), conn.iterate(sql, params)),
  };
};

/** Iterates while holding the connection's turn, released when the loop ends or breaks. */
async function* heldIteration<Row>(serial: Serial, rows: () => AsyncIterable<Row>): AsyncIterable<Row> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await new Promise<void>((granted) => void serial.run(() => (granted(), held)));
  try {
    yield* rows();
  } finally {
    release();
  }
}

/** A read-only view of its own for `Store.snapshot`; absent: the snapshot is a transaction of the store's. */
export type SnapshotOpener = <T>(fn: (q: Queryable) => Promise<T>) => Promise<T>;

export const serialStore = (
  engine: Store['engine'],
  conn: Connection,
  ownSnapshot?: SnapshotOpener,
): Store => {
  const serial = new Serial();
  const turn = <T>(task: () => Promise<T>): Promise<T> => {
    if (insideTransaction.getStore() === serial)
      return Promise.reject(
        new Error('Inside a transaction, use the handle the transaction gives, not the store.'),
      );
    return serial.run(task);
  };
  const transaction = <T>(fn: (tx: Queryable) => Promise<T>, _options?: TransactionOptions) =>
    turn(async () => {
      let open = true;
      await conn.begin();
      try {
        const result = await insideTransaction.run(serial, () => fn(transactionHandle(conn, () => open)));
        await conn.commit();
        return result;
      } catch (e) {
        await conn.rollback();
        throw e;
      } finally {
        open = false;
      }
    });
  return {
    engine,
    dialect: conn.dialect,
    all: <Row>(sql: string, params?: readonly SqlValue[]) => turn(() => conn.all<Row>(sql, params)),
    get: <Row>(sql: string, params?: readonly SqlValue[]) => turn(() => conn.get<Row>(sql, params)),
    run: (sql, params) => turn(() => conn.run(sql, params)),
    iterate: <Row>(sql: string, params?: readonly SqlValue[]) => {
      if (insideTransaction.getStore() === serial)
        throw new Error('Inside a transaction, use the handle the transaction gives, not the store.');
      return heldIteration(serial, () => conn.iterate<Row>(sql, params));
    },
    transaction,
    snapshot: ownSnapshot ?? ((fn) => transaction(fn)),
    get open() {
      return conn.open;
    },
    close: () => serial.run(() => conn.close()),
  };
};
