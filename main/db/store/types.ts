/**
 * The study store: one asynchronous interface over either engine (SQLite, embedded; PostgreSQL, a
 * server or PGlite in tests). Repositories write their SQL once, with `?` placeholders, and take what
 * differs between the engines from the store's `dialect` (./dialect.ts).
 */
import type { ConnectionWatch } from './connection-watch';
import type { Dialect } from './dialect';

/** A value bound to a placeholder. Booleans are stored as 0/1 on both engines (dialect.ts). */
export type SqlValue = string | number | bigint | null | Uint8Array;

export interface RunResult {
  /** Rows inserted, updated or deleted. */
  readonly changes: number;
}

/** What a repository can do with the store, inside a transaction or outside one. */
export interface Queryable {
  readonly dialect: Dialect;
  all<Row>(sql: string, params?: readonly SqlValue[]): Promise<Row[]>;
  get<Row>(sql: string, params?: readonly SqlValue[]): Promise<Row | undefined>;
  run(sql: string, params?: readonly SqlValue[]): Promise<RunResult>;
  /** The rows of a large result a batch at a time, never all held at once. */
  iterate<Row>(sql: string, params?: readonly SqlValue[]): AsyncIterable<Row>;
}

export interface TransactionOptions {
  /**
   * The whole transaction is safe to run again: it reads and writes the database only, and sends no
   * request to the service (nor anything else outside the database). Only such a transaction is
   * retried when PostgreSQL aborts it for a serialisation failure or a deadlock; any other is failed.
   */
  readonly repeatable?: boolean;
  /**
   * The transaction only extends the audit log, whose writers take turns through a lock (the
   * dialect's `auditChainTail`). PostgreSQL runs it READ COMMITTED, so what it reads after the wait
   * includes the entry of the writer before it; a SERIALIZABLE one keeps the view from before its wait
   * and is aborted, again and again when many write at once. Other engines ignore it.
   */
  readonly appendsUnderLock?: boolean;
}

export interface Store extends Queryable {
  readonly engine: 'sqlite' | 'postgres';
  /**
   * Runs `fn` in one transaction on one connection, committed when `fn` resolves and rolled back
   * when it throws. Everything inside goes through the handle `fn` receives; the store itself waits
   * for the transaction to end (on SQLite's single connection, transactions run one after another).
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Runs `fn` over a consistent, read-only view of the database as it is when `fn` starts, on a
   * connection of its own where the engine allows one (a SQLite file: a second, read-only connection;
   * PostgreSQL: a pool client in a REPEATABLE READ READ ONLY transaction): the store's other callers
   * keep reading and writing meanwhile, and `fn` sees none of their writes. Long reads (an export)
   * go through it. Where there is only the one connection (an in-memory SQLite, PGlite), `fn` runs
   * in a transaction of the store's, which holds that connection until it ends.
   */
  snapshot<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  /**
   * A server's store only: whether its connection is lost, told when it is lost and when it is back
   * (./connection-watch.ts). An embedded store has no connection to lose.
   */
  readonly connection?: ConnectionWatch;
  /** False once the store was closed (the workspace closing): work that finds it closed stops. */
  readonly open: boolean;
  close(): Promise<void>;
}
