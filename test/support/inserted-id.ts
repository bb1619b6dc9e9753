import type { Queryable, SqlValue } from '../../main/db/store/types';

/** Inserts one row (`sql` without its RETURNING) and gives its id, on either engine. */
export const insertedId = async (q: Queryable, sql: string, params: readonly SqlValue[]): Promise<number> =>
  Number((await q.get<{ id: number }>(`${sql} RETURNING id`, params))!.id);
