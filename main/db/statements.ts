/** Prepared statements cached per connection, so repositories can name their SQL inline without re-preparing it on every call. */
import type Database from 'better-sqlite3';

const cache = new WeakMap<Database.Database, Map<string, Database.Statement>>();

export const stmt = (db: Database.Database, sql: string): Database.Statement => {
  let perDb = cache.get(db);
  if (!perDb) cache.set(db, (perDb = new Map()));
  let s = perDb.get(sql);
  if (!s) perDb.set(sql, (s = db.prepare(sql)));
  return s;
};
