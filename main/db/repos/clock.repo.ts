/** The database's own clock, which every workstation of a shared study database counts its deadlines on. */
import type { Queryable } from '../store/types';

/** The database's current time (ISO-8601 UTC text with milliseconds). */
export const databaseNow = async (q: Queryable): Promise<string> =>
  (await q.get<{ now: string }>(`SELECT ${q.dialect.nowText} AS now`))!.now;
