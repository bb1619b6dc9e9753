/** The researcher's settings and the queue's persisted pauses: small JSON values by key. */
import type { z } from 'zod';
import { jsonColumn } from '../json-column';
import type { Db } from '../open';
import { stmt } from '../statements';

/** A setting's value, decoded by the schema its owner gives; null when it was never written. */
export const readSetting = <S extends z.ZodType>(db: Db, key: string, schema: S): z.output<S> | null => {
  const r = stmt(db, `SELECT value FROM settings WHERE key = ?`).get(key) as { value: string } | undefined;
  return r ? jsonColumn('settings', `value of ${key}`, schema).decode(r.value) : null;
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
