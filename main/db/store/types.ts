/**
 * The study store: one asynchronous interface over either engine (SQLite, embedded; PostgreSQL, a
 * server or PGlite in tests). Repositories write their SQL once, with `?` placeholders, and take what
 * differs between the engines from the store's `dialect` (./dialect.ts).
 */
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
}

export interface Store extends Queryable {
  readonly engine: 'sqlite' | 'postgres';
  /**
   * Runs `fn` in one transaction on one connection, committed when `fn` resolves and rolled back
   * when it throws. Everything inside goes through the handle `fn` receives; the store itself waits
   * for the transaction to end (on SQLite's single connection, transactions run one after another).
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T>;
  close(): Promise<void>;
}
