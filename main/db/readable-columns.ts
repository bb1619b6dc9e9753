/**
 * Reading a table whose columns a team member may not all read (column GRANTs keep the account link
 * and the key reference to the owner, notes and file paths from analysts; main/db/team/access.ts):
 * the columns the login may read are named, and each other column read as NULL, so one query serves
 * every role and never meets "permission denied for table".
 */
import type { Queryable } from './store/types';

/** Those of `columns` the login may not read (none on SQLite, nor for a team study's owner). */
export const unreadableColumns = async (
  q: Queryable,
  table: string,
  columns: readonly string[],
): Promise<string[]> => {
  const asked = q.dialect.readableColumns(table);
  if (asked === null) return [];
  const readable = new Set((await q.all<{ name: string }>(asked)).map((r) => r.name));
  return columns.filter((c) => !readable.has(c));
};

/** `columns` as a SELECT list, each column the login may not read given as `NULL AS column`. */
export const readableSelect = async (
  q: Queryable,
  table: string,
  columns: readonly string[],
  alias = table,
): Promise<string> => {
  const unreadable = new Set(await unreadableColumns(q, table, columns));
  return columns.map((c) => (unreadable.has(c) ? `NULL AS ${c}` : `${alias}.${c}`)).join(', ');
};
