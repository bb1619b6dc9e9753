/**
 * The queries of one PostgreSQL connection (a `pg` client or PGlite), written once for both. Large
 * results are read through a cursor a batch at a time; a cursor lives in a transaction, so outside one
 * the iteration opens its own.
 */
import { POSTGRES } from './dialect';
import type { Queryable, SqlValue } from './types';

export interface RawResult {
  readonly rows: unknown[];
  readonly changes: number;
}
export type RawQuery = (text: string, params: readonly SqlValue[]) => Promise<RawResult>;

/** Rows fetched from a cursor at a time. */
export const FETCH_BATCH = 500;
let cursors = 0;

async function* cursorRows<Row>(
  query: RawQuery,
  sql: string,
  params: readonly SqlValue[],
  ownTransaction: boolean,
): AsyncIterable<Row> {
  const cursor = `voicescope_cursor_${++cursors}`;
  if (ownTransaction) await query('BEGIN', []);
  let done = false;
  try {
    await query(`DECLARE ${cursor} NO SCROLL CURSOR FOR ${POSTGRES.placeholders(sql)}`, params);
    for (;;) {
      const { rows } = await query(`FETCH ${FETCH_BATCH} FROM ${cursor}`, []);
      yield* rows as Row[];
      if (rows.length < FETCH_BATCH) break;
    }
    await query(`CLOSE ${cursor}`, []);
    done = true;
  } finally {
    if (ownTransaction) await query(done ? 'COMMIT' : 'ROLLBACK', []);
    else if (!done) await query(`CLOSE ${cursor}`, []).catch(() => undefined);
  }
}

/** The queries of one connection; `inTransaction` says whether a cursor may be opened as it is. */
export const pgSession = (query: RawQuery, inTransaction: () => boolean): Queryable => {
  const all = async <Row>(sql: string, params?: readonly SqlValue[]) =>
    (await query(POSTGRES.placeholders(sql), params ?? [])).rows as Row[];
  return {
    dialect: POSTGRES,
    all,
    get: async <Row>(sql: string, params?: readonly SqlValue[]) => (await all<Row>(sql, params))[0],
    run: async (sql, params) => ({
      changes: (await query(POSTGRES.placeholders(sql), params ?? [])).changes,
    }),
    iterate: <Row>(sql: string, params?: readonly SqlValue[]) =>
      cursorRows<Row>(query, sql, params ?? [], !inTransaction()),
  };
};

/** int8 (counts, sums of integers) and numeric as JavaScript numbers, as SQLite gives them. */
export const NUMBER_TYPES: readonly number[] = [20, 1700];

/** Transactions on PostgreSQL are SERIALIZABLE: as if run one after another, as on SQLite. */
export const BEGIN_TRANSACTION = 'BEGIN ISOLATION LEVEL SERIALIZABLE';
