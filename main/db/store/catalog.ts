/**
 * A study database's schema as its engine's catalog describes it, in one shape for both engines
 * (SQLite's sqlite_master and pragmas; PostgreSQL's information_schema and pg_catalog), so the two
 * schemas can be compared: tables, columns with their kind of type and nullability, primary keys,
 * foreign keys, unique keys and the named indexes.
 */
import { VERSION_TABLE } from './dialect';
import type { Queryable } from './types';

export type ColumnKind = 'integer' | 'real' | 'text' | 'blob';

export interface TableShape {
  /** `name kind [not null]`, in the table's order. */
  readonly columns: readonly string[];
  readonly primaryKey: readonly string[];
  /** `column -> table.column on delete RULE`, sorted. */
  readonly foreignKeys: readonly string[];
  /** Each unique key other than the primary key: its columns, and `partial` for a partial index; sorted. */
  readonly uniqueKeys: readonly string[];
  /** The indexes made by CREATE INDEX (not those behind a key), by name, sorted. */
  readonly indexes: readonly string[];
}
export type SchemaShape = Record<string, TableShape>;

const SQLITE_KINDS: Record<string, ColumnKind> = {
  INTEGER: 'integer',
  REAL: 'real',
  TEXT: 'text',
  BLOB: 'blob',
};
const POSTGRES_KINDS: Record<string, ColumnKind> = {
  bigint: 'integer',
  integer: 'integer',
  'double precision': 'real',
  text: 'text',
  bytea: 'blob',
};
const column = (name: string, kind: ColumnKind | undefined, notNull: boolean) =>
  `${name} ${kind ?? 'unknown'}${notNull ? ' not null' : ''}`;

interface SqliteColumn {
  name: string;
  type: string;
  notnull: number;
  pk: number;
}

const sqliteTable = async (q: Queryable, table: string): Promise<TableShape> => {
  const cols = await q.all<SqliteColumn>(
    'SELECT name, type, "notnull", pk FROM pragma_table_info(?) ORDER BY cid',
    [table],
  );
  const fks = await q.all<{ from: string; table: string; to: string; on_delete: string }>(
    'SELECT "from", "table", "to", on_delete FROM pragma_foreign_key_list(?)',
    [table],
  );
  const indexes = await q.all<{ name: string; unique: number; origin: string; partial: number }>(
    'SELECT name, "unique", origin, partial FROM pragma_index_list(?)',
    [table],
  );
  const uniqueKeys: string[] = [];
  for (const ix of indexes.filter((i) => i.unique === 1 && i.origin !== 'pk')) {
    const keyCols = await q.all<{ name: string }>('SELECT name FROM pragma_index_info(?) ORDER BY seqno', [
      ix.name,
    ]);
    uniqueKeys.push(`${keyCols.map((c) => c.name).join(', ')}${ix.partial ? ' partial' : ''}`);
  }
  return {
    columns: cols.map((c) => column(c.name, SQLITE_KINDS[c.type.toUpperCase()], c.notnull === 1 || c.pk > 0)),
    primaryKey: cols
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => c.name),
    foreignKeys: fks.map((f) => `${f.from} -> ${f.table}.${f.to} on delete ${f.on_delete}`).sort(),
    uniqueKeys: uniqueKeys.sort(),
    indexes: indexes
      .filter((i) => i.origin === 'c' && i.unique === 0)
      .map((i) => i.name)
      .sort(),
  };
};

export const sqliteSchema = async (q: Queryable): Promise<SchemaShape> => {
  const tables = await q.all<{ name: string }>(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
  );
  const shape: SchemaShape = {};
  for (const t of tables) shape[t.name] = await sqliteTable(q, t.name);
  return shape;
};

const PG_COLUMNS = `SELECT table_name AS tbl, column_name AS name, data_type AS type, is_nullable AS nullable
  FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`;
const PG_KEYS = `SELECT c.conrelid::regclass::text AS tbl, c.contype AS kind, c.confdeltype AS on_delete,
    (SELECT string_agg(a.attname, ', ' ORDER BY k.i) FROM unnest(c.conkey) WITH ORDINALITY AS k(n, i)
      JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n) AS cols,
    c.confrelid::regclass::text AS ref_table,
    (SELECT string_agg(a.attname, ', ') FROM unnest(c.confkey) AS k(n)
      JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n) AS ref_cols
  FROM pg_constraint c JOIN pg_namespace s ON s.oid = c.connamespace
  WHERE s.nspname = current_schema() AND c.contype IN ('p', 'f', 'u')`;
const PG_INDEXES = `SELECT t.relname AS tbl, i.relname AS name, x.indisunique AS is_unique, x.indpred IS NOT NULL AS partial,
    (SELECT string_agg(a.attname, ', ' ORDER BY k.i) FROM unnest(x.indkey) WITH ORDINALITY AS k(n, i)
      JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.n) AS cols
  FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
  JOIN pg_namespace s ON s.oid = t.relnamespace
  WHERE s.nspname = current_schema() AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)`;
const PG_DELETE_RULES: Record<string, string> = {
  a: 'NO ACTION',
  r: 'RESTRICT',
  c: 'CASCADE',
  n: 'SET NULL',
  d: 'SET DEFAULT',
};

const emptyTable = () => ({
  columns: [] as string[],
  primaryKey: [] as string[],
  foreignKeys: [] as string[],
  uniqueKeys: [] as string[],
  indexes: [] as string[],
});

export const postgresSchema = async (q: Queryable): Promise<SchemaShape> => {
  const tables: Record<string, ReturnType<typeof emptyTable>> = {};
  const of = (t: string) => (tables[t] ??= emptyTable());
  for (const c of await q.all<{ tbl: string; name: string; type: string; nullable: string }>(PG_COLUMNS))
    if (c.tbl !== VERSION_TABLE)
      of(c.tbl).columns.push(column(c.name, POSTGRES_KINDS[c.type], c.nullable === 'NO'));
  type Key = {
    tbl: string;
    kind: string;
    on_delete: string;
    cols: string;
    ref_table: string;
    ref_cols: string;
  };
  for (const k of await q.all<Key>(PG_KEYS)) {
    if (k.kind === 'p') of(k.tbl).primaryKey.push(...k.cols.split(', '));
    else if (k.kind === 'u') of(k.tbl).uniqueKeys.push(k.cols);
    else
      of(k.tbl).foreignKeys.push(
        `${k.cols} -> ${k.ref_table}.${k.ref_cols} on delete ${PG_DELETE_RULES[k.on_delete]}`,
      );
  }
  for (const i of await q.all<{
    tbl: string;
    name: string;
    is_unique: boolean;
    partial: boolean;
    cols: string | null;
  }>(PG_INDEXES)) {
    if (i.is_unique) of(i.tbl).uniqueKeys.push(`${i.cols ?? ''}${i.partial ? ' partial' : ''}`);
    else of(i.tbl).indexes.push(i.name);
  }
  for (const t of Object.values(tables)) {
    t.foreignKeys.sort();
    t.uniqueKeys.sort();
    t.indexes.sort();
  }
  return Object.fromEntries(Object.entries(tables).sort(([a], [b]) => a.localeCompare(b)));
};
