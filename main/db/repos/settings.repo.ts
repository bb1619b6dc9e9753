/** The researcher's settings and the queue's persisted pauses: small JSON values by key. */
import type { Db } from '../open';
import { stmt } from '../statements';

export const readSetting = <T>(db: Db, key: string): T | null => {
  const r = stmt(db, `SELECT value FROM settings WHERE key = ?`).get(key) as { value: string } | undefined;
  return r ? (JSON.parse(r.value) as T) : null;
};

export const writeSetting = (db: Db, key: string, value: unknown): void => {
  stmt(
    db,
    `INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  ).run(key, JSON.stringify(value));
};

export const deleteSetting = (db: Db, key: string): void => {
  stmt(db, `DELETE FROM settings WHERE key = ?`).run(key);
};
