/** The researcher's settings and the queue's persisted pauses: small JSON values by key. */
import type { z } from 'zod';
import { jsonColumn } from '../json-column';
import type { Queryable } from '../store/types';

/** A setting's value, decoded by the schema its owner gives; null when it was never written. */
export const readSetting = async <S extends z.ZodType>(
  q: Queryable,
  key: string,
  schema: S,
): Promise<z.output<S> | null> => {
  const r = await q.get<{ value: string }>(`SELECT value FROM settings WHERE key = ?`, [key]);
  return r ? jsonColumn('settings', `value of ${key}`, schema).decode(r.value) : null;
};

export const writeSetting = async (q: Queryable, key: string, value: unknown): Promise<void> => {
  await q.run(
    `INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    [key, JSON.stringify(value)],
  );
};

export const deleteSetting = async (q: Queryable, key: string): Promise<void> => {
  await q.run(`DELETE FROM settings WHERE key = ?`, [key]);
};
