/**
 * The study database files a move reads and writes: a consistent copy of a single-user study file
 * (SQLite's online backup, so the researcher's own file is neither changed nor upgraded), and what the
 * copy needs of either engine's catalog.
 */
import { closeSync, openSync } from 'node:fs';
import Database from 'better-sqlite3';
import { PRIVATE_FILE_MODE } from '../../file-modes';
import { postgresSchema, sqliteSchema, type SchemaShape } from '../store/catalog';
import type { Queryable } from '../store/types';

/** Copies the SQLite study file `from` to `to` (a new file, private to this user), read-only on `from`. */
export const copyStudyFile = async (from: string, to: string): Promise<void> => {
  closeSync(openSync(to, 'wx', PRIVATE_FILE_MODE));
  const source = new Database(from, { readonly: true, fileMustExist: true });
  try {
    await source.backup(to);
  } finally {
    source.close();
  }
};

export const schemaOf = (q: Queryable): Promise<SchemaShape> =>
  q.dialect.name === 'sqlite' ? sqliteSchema(q) : postgresSchema(q);

export const schemaVersionOf = async (q: Queryable): Promise<number> =>
  Number((await q.get<{ user_version: number }>(q.dialect.readVersion))?.user_version ?? 0);
