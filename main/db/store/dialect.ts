/**
 * Every difference between SQLite's and PostgreSQL's SQL that a repository meets, each in one place.
 * A repository writes one query and asks the store's dialect for the part that differs; there is never
 * a second copy of a query for the other engine.
 *
 * Conventions that make most differences disappear, kept on both engines:
 * - dates and times are ISO-8601 text in UTC (`2026-11-28T20:00:00.000Z`), compared as text;
 * - booleans are integers 0/1 (SQLite has no boolean type; PostgreSQL columns are `integer` with the
 *   same CHECK), so `WHERE flag = 1` reads the same on both;
 * - JSON is text, read with `jsonText` below;
 * - `RETURNING` exists on both (SQLite since 3.35), and so does `INSERT ... ON CONFLICT (...) DO ...`.
 */
export type DialectName = 'sqlite' | 'postgres';

/** The types a placeholder or a JSON array's values are read as. */
export type SqlType = 'integer' | 'real' | 'text';

export interface Dialect {
  readonly name: DialectName;
  /** The SQL the engine runs for a query written with `?` placeholders. */
  placeholders(sql: string): string;
  /** The text at `$.key` (or `$.a.b` for the path `a.b`) of a JSON text column (null when absent). */
  jsonText(column: string, path: string): string;
  /** The values of `expr` in a group joined with commas (SQLite's `group_concat`). */
  groupConcat(expr: string): string;
  /**
   * The values of a JSON array bound to `param` (`?` or `@name`), as a subquery's one column `value`
   * of the given type, for `x IN (SELECT value FROM …)`.
   */
  jsonValues(param: string, type: SqlType): string;
  /** A group's `[a, b]` arrays as JSON array text, `[]` for an empty group. */
  jsonGroupArrayOfPairs(a: string, b: string): string;
  /** A group's `{key: value}` object as JSON text (value a number, or text where the number is null). */
  jsonGroupObject(key: string, num: string, text: string): string;
  /** The JSON text `column` (null read as `{}`) with its member `key` set to the text bound to `?`. */
  jsonSetText(column: string, key: string): string;
  /**
   * A placeholder whose type the engine cannot infer from where it stands (`? IS NULL`, a CASE, a
   * comparison with another placeholder): PostgreSQL needs it cast; SQLite takes it as it is.
   */
  param(type: SqlType): string;
  /** `a IS NOT b` (true when they differ, NULL counted as a value). */
  distinct(a: string, b: string): string;
  /** `a IS b` (true when they are equal, or both NULL). */
  notDistinct(a: string, b: string): string;
  /** A boolean expression read as a 0/1 integer (PostgreSQL returns booleans as booleans). */
  flag(expr: string): string;
  /**
   * Text compared and ordered with ASCII letters folded to lower case and otherwise byte by byte
   * (SQLite's `COLLATE NOCASE`), whatever the server's collation.
   */
  nocase(expr: string): string;
  /** Text ordered byte by byte (SQLite's own order), whatever the server's collation. */
  binary(expr: string): string;
  /** An ORDER BY term with NULL first ascending and last descending (SQLite's order; PostgreSQL's is the reverse). */
  order(expr: string, dir: 'ASC' | 'DESC'): string;
  /** An expression SQLite's planner must not answer from an index (`+expr`); as it is elsewhere. */
  unindexed(expr: string): string;
  /** SQLite's choice of index for a table (`INDEXED BY x`, `NOT INDEXED`); nothing elsewhere. */
  planHint(hint: string): string;
  /** Seconds from the ISO-8601 text `from` to the ISO-8601 text `to`, as a real number. */
  secondsBetween(from: string, to: string): string;
  /**
   * A cache key that changes whenever any connection has written to the database; read with
   * `SELECT <it> AS v`.
   */
  readonly writeStamp: string;
  /** The current time as ISO-8601 UTC text with milliseconds. */
  readonly nowText: string;
  /** The current time plus the seconds bound to `param`, as ISO-8601 UTC text with milliseconds (a lease's end). */
  nowPlusSeconds(param: string): string;
  /** The database login running the statement, as text (SQLite has no logins: NULL). */
  readonly currentLogin: string;
  /** An integer primary key that the engine numbers by itself. */
  readonly identityColumn: string;
  /** The type of an integer column (a key to a numbered row, a count): SQLite's INTEGER, PostgreSQL's bigint. */
  readonly integerType: string;
  /** The type of a real-number column: SQLite's REAL, PostgreSQL's double precision. */
  readonly realType: string;
  /** The larger of two numbers (SQLite's two-argument `max`). */
  greatest(a: string, b: string): string;
  /** The smaller of two numbers (SQLite's two-argument `min`). */
  least(a: string, b: string): string;
  /**
   * Ends a SELECT (or subquery) whose rows a workstation takes for itself from a queue several take from
   * (an upload, a due poll): on PostgreSQL the rows of the table aliased `alias` are locked and rows
   * another transaction holds are passed by, not waited for (`FOR NO KEY UPDATE OF alias SKIP LOCKED`: the
   * key is never changed, so rows referencing them can still be written meanwhile); SQLite writes one
   * transaction at a time and has no such clause.
   */
  skipLocked(alias: string): string;
  /**
   * Whether several workstations may work on the database at once (a server), so that what they share
   * (the request budget, the database's clock) must be kept in the database rather than in a process.
   */
  readonly sharedByWorkstations: boolean;
  /**
   * `column LIKE param` with `\` as its escape character (a pattern made by `likePattern`), ASCII
   * letters matched whatever their case (SQLite's `LIKE`).
   */
  like(column: string, param?: string): string;
  /** Inserts a row, or on a conflict on `key`, sets the given columns from the proposed row. */
  upsert(
    table: string,
    columns: readonly string[],
    key: readonly string[],
    update: readonly string[],
  ): string;
  /**
   * How deleted rows' bytes are erased from the database's own files: SQLite's `secure_delete` (read
   * as `secure_delete`, set around the deletion) and the WAL checkpoint after it (`busy` 0: emptied).
   * Null where the engine offers no such thing (PostgreSQL keeps dead rows until its own VACUUM).
   */
  readonly secureDelete: {
    readonly read: string;
    set(on: boolean): string;
    readonly checkpoint: string;
  } | null;
  /** The statement that reads the schema version, and the one that writes it. */
  readonly readVersion: string;
  writeVersion(version: number): string;
  /** Whether `e`, thrown by a statement, is the engine refusing a second row with the same `table.column`. */
  isUniqueViolation(e: unknown, table: string, column: string): boolean;
  /**
   * Whether `e`, thrown by a statement, is the database refusing the login the table, the column or the
   * row (a team study's GRANTs and row-level security); never on SQLite, which has no logins.
   */
  isPermissionDenied(e: unknown): boolean;
  /**
   * After rows were inserted with their own numbers in an identity column: the statement that makes the
   * engine number the next row after the largest (PostgreSQL's identity sequence does not follow numbers
   * given to it); null where the engine numbers from the largest by itself (SQLite).
   */
  identityCatchUp(table: string, column: string): string | null;
  /**
   * The end of the audit log's hash chain, read by the writer of the next entry: one row with the last
   * entry's `id` and `hash` (both null for an empty log) and the `member` writing (the database login;
   * null on SQLite, which has none). On PostgreSQL the read goes through a function that runs with its
   * owner's rights, so a member who sees only their own sites' entries still extends the one chain, and
   * that locks the log until the transaction ends, so concurrent writers take their turns; `setup`
   * creates it (migration 0210).
   */
  readonly auditChainTail: { readonly setup: readonly string[]; readonly read: string };
  /**
   * Statements that keep every column of a curation act as written, but its audit entry's number, set
   * once (migration 0240): SQLite's trigger names each column, so it is written again with the member
   * and workstation of migration 0210; PostgreSQL's compares whole rows and needs nothing.
   */
  readonly curationActsUnchanged: readonly string[];
  /**
   * The query for the columns of `table` the connected login may read, as rows of one column `name`
   * (on a team database, column GRANTs keep some to the owner); null where every column is readable
   * (SQLite), so nothing is asked.
   */
  readableColumns(table: string): string | null;
}

const fieldOf = (e: unknown, name: string): unknown =>
  e !== null && typeof e === 'object' ? (e as Record<string, unknown>)[name] : undefined;

/** A `LIKE` pattern that matches `text` literally somewhere inside, for `dialect.like`. */
export const likePattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * `?` placeholders numbered `$1`, `$2`, … for PostgreSQL, leaving quoted text, quoted names and
 * comments alone (a `?` there is not a placeholder).
 */
export const numberPlaceholders = (sql: string): string => {
  let out = '';
  let n = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    const end = skipQuoted(sql, i);
    if (end > i) {
      out += sql.slice(i, end);
      i = end;
    } else {
      out += c === '?' ? `$${++n}` : c;
      i++;
    }
  }
  return out;
};

/** The index after a quoted string, quoted name or comment starting at `i`; `i` when none starts there. */
export const skipQuoted = (sql: string, i: number): number => {
  const c = sql[i]!;
  if (c === "'" || c === '"') {
    let j = i + 1;
    while (j < sql.length) {
      if (sql[j] === c) {
        if (sql[j + 1] === c) j += 2;
        else return j + 1;
      } else j++;
    }
    return sql.length;
  }
  if (c === '-' && sql[i + 1] === '-') {
    const nl = sql.indexOf('\n', i);
    return nl < 0 ? sql.length : nl;
  }
  if (c === '/' && sql[i + 1] === '*') {
    const close = sql.indexOf('*/', i + 2);
    return close < 0 ? sql.length : close + 2;
  }
  return i;
};

const jsonKey = (key: string): string => {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) throw new Error(`not a JSON member name: ${key}`);
  return key;
};

const tableName = (table: string): string => {
  if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new Error(`not a table name: ${table}`);
  return table;
};

/** The member names of a dotted JSON path (`into.id`), each checked. */
const jsonPath = (path: string): string[] => path.split('.').map(jsonKey);

const PG_TYPES: Readonly<Record<SqlType, string>> = {
  integer: 'bigint',
  real: 'double precision',
  text: 'text',
};

const ASCII_UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** PostgreSQL text with ASCII letters (only) in lower case, as SQLite's NOCASE and LIKE fold them. */
const foldAscii = (expr: string): string =>
  `translate(${expr}, '${ASCII_UPPER}', '${ASCII_UPPER.toLowerCase()}')`;

const upsertWith =
  (excluded: string) =>
  (table: string, columns: readonly string[], key: readonly string[], update: readonly string[]): string =>
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ` +
    `ON CONFLICT (${key.join(', ')}) DO ` +
    (update.length ? `UPDATE SET ${update.map((c) => `${c} = ${excluded}.${c}`).join(', ')}` : 'NOTHING');

export const SQLITE: Dialect = {
  name: 'sqlite',
  placeholders: (sql) => sql,
  jsonText: (column, path) => `json_extract(${column}, '$.${jsonPath(path).join('.')}')`,
  groupConcat: (expr) => `group_concat(${expr})`,
  jsonValues: (param) => `SELECT value FROM json_each(${param})`,
  jsonGroupArrayOfPairs: (a, b) => `json_group_array(json_array(${a}, ${b}))`,
  jsonGroupObject: (key, num, text) => `json_group_object(${key}, coalesce(${num}, ${text}))`,
  jsonSetText: (column, key) => `json_set(coalesce(${column}, '{}'), '$.${jsonKey(key)}', ?)`,
  param: () => '?',
  distinct: (a, b) => `${a} IS NOT ${b}`,
  notDistinct: (a, b) => `${a} IS ${b}`,
  flag: (expr) => expr,
  nocase: (expr) => `${expr} COLLATE NOCASE`,
  binary: (expr) => expr,
  order: (expr, dir) => `${expr} ${dir}`,
  unindexed: (expr) => `+${expr}`,
  planHint: (hint) => hint,
  secondsBetween: (from, to) => `(julianday(${to}) - julianday(${from})) * 86400.0`,
  writeStamp: `(SELECT data_version FROM pragma_data_version) || ':' || total_changes()`,
  nowText: `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
  nowPlusSeconds: (param) => `strftime('%Y-%m-%dT%H:%M:%fZ', 'now', printf('%+.3f seconds', ${param}))`,
  currentLogin: 'NULL',
  identityColumn: 'INTEGER PRIMARY KEY',
  integerType: 'INTEGER',
  realType: 'REAL',
  greatest: (a, b) => `max(${a}, ${b})`,
  least: (a, b) => `min(${a}, ${b})`,
  skipLocked: () => '',
  sharedByWorkstations: false,
  like: (column, param = '?') => `${column} LIKE ${param} ESCAPE '\\'`,
  upsert: upsertWith('excluded'),
  secureDelete: {
    read: 'PRAGMA secure_delete',
    set: (on) => `PRAGMA secure_delete = ${on ? 'ON' : 'OFF'}`,
    checkpoint: 'PRAGMA wal_checkpoint(TRUNCATE)',
  },
  identityCatchUp: () => null,
  readVersion: 'PRAGMA user_version',
  writeVersion: (version) => `PRAGMA user_version = ${Math.trunc(version)}`,
  // better-sqlite3: code SQLITE_CONSTRAINT_UNIQUE, message "UNIQUE constraint failed: table.column".
  isUniqueViolation: (e, table, column) =>
    fieldOf(e, 'code') === 'SQLITE_CONSTRAINT_UNIQUE' &&
    String(fieldOf(e, 'message')).includes(`${table}.${column}`),
  isPermissionDenied: () => false,
  readableColumns: () => null,
  auditChainTail: {
    setup: [],
    read: `SELECT (SELECT id FROM audit_log ORDER BY id DESC LIMIT 1) AS id,
      (SELECT hash FROM audit_log ORDER BY id DESC LIMIT 1) AS hash, NULL AS member`,
  },
  curationActsUnchanged: [
    'DROP TRIGGER curation_acts_no_update',
    `CREATE TRIGGER curation_acts_no_update BEFORE UPDATE ON curation_acts
       WHEN NOT (OLD.audit_id IS NULL AND NEW.audit_id IS NOT NULL AND NEW.before IS OLD.before AND NEW.after IS OLD.after
                 AND NEW.reason IS OLD.reason AND NEW.act IS OLD.act AND NEW.at IS OLD.at AND NEW.who IS OLD.who
                 AND NEW.recording_id IS OLD.recording_id AND NEW.undoes IS OLD.undoes AND NEW.study_id IS OLD.study_id
                 AND NEW.participant_id IS OLD.participant_id AND NEW.id IS OLD.id
                 AND NEW.member IS OLD.member AND NEW.workstation IS OLD.workstation)
     BEGIN SELECT RAISE(ABORT, 'curation_acts are never changed'); END`,
  ],
};

/** The table that holds PostgreSQL's schema version (SQLite keeps it in `user_version`). */
export const VERSION_TABLE = 'schema_version';

export const POSTGRES: Dialect = {
  name: 'postgres',
  placeholders: numberPlaceholders,
  jsonText: (column, path) => `((${column})::jsonb #>> '{${jsonPath(path).join(',')}}')`,
  groupConcat: (expr) => `string_agg((${expr})::text, ',')`,
  jsonValues: (param, type) =>
    `SELECT CAST(value AS ${PG_TYPES[type]}) AS value FROM jsonb_array_elements_text(CAST(${param} AS jsonb)) AS j(value)`,
  jsonGroupArrayOfPairs: (a, b) => `coalesce(json_agg(json_build_array(${a}, ${b}))::text, '[]')`,
  jsonGroupObject: (key, num, text) =>
    `json_object_agg(${key}, CASE WHEN ${num} IS NOT NULL THEN to_jsonb(${num}) ELSE to_jsonb(${text}) END)::text`,
  jsonSetText: (column, key) =>
    `jsonb_set(CAST(coalesce(${column}, '{}') AS jsonb), '{${jsonKey(key)}}', to_jsonb(CAST(? AS text)))::text`,
  param: (type) => `CAST(? AS ${PG_TYPES[type]})`,
  distinct: (a, b) => `${a} IS DISTINCT FROM ${b}`,
  notDistinct: (a, b) => `${a} IS NOT DISTINCT FROM ${b}`,
  flag: (expr) => `CAST((${expr}) AS integer)`,
  nocase: (expr) => `${foldAscii(expr)} COLLATE "C"`,
  binary: (expr) => `${expr} COLLATE "C"`,
  order: (expr, dir) => `${expr} ${dir} NULLS ${dir === 'ASC' ? 'FIRST' : 'LAST'}`,
  unindexed: (expr) => expr,
  planHint: () => '',
  secondsBetween: (from, to) =>
    `EXTRACT(EPOCH FROM (CAST(${to} AS timestamptz) - CAST(${from} AS timestamptz)))::double precision`,
  writeStamp: `pg_current_wal_insert_lsn()::text`,
  nowText: `to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  nowPlusSeconds: (param) =>
    `to_char((now() + make_interval(secs => CAST(${param} AS double precision))) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  currentLogin: 'CAST(current_user AS text)',
  identityColumn: 'bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY',
  integerType: 'bigint',
  realType: 'double precision',
  greatest: (a, b) => `GREATEST(${a}, ${b})`,
  least: (a, b) => `LEAST(${a}, ${b})`,
  skipLocked: (alias) => `FOR NO KEY UPDATE OF ${alias} SKIP LOCKED`,
  sharedByWorkstations: true,
  like: (column, param = '?') => `${foldAscii(column)} LIKE ${foldAscii(param)} ESCAPE '\\'`,
  upsert: upsertWith('EXCLUDED'),
  secureDelete: null,
  identityCatchUp: (table, column) =>
    `SELECT setval(pg_get_serial_sequence('${table}', '${column}'), (SELECT max(${column}) FROM ${table}))`,
  readVersion: `SELECT version AS user_version FROM ${VERSION_TABLE}`,
  writeVersion: (version) => `UPDATE ${VERSION_TABLE} SET version = ${Math.trunc(version)}`,
  // SQLSTATE 23505 (unique_violation), with the table and "Key (column)=(value) already exists.".
  isUniqueViolation: (e, table, column) =>
    fieldOf(e, 'code') === '23505' &&
    fieldOf(e, 'table') === table &&
    String(fieldOf(e, 'detail')).startsWith(`Key (${column})=`),
  // SQLSTATE 42501 (insufficient_privilege): a GRANT missing, or a row outside the login's policies.
  isPermissionDenied: (e) => fieldOf(e, 'code') === '42501',
  readableColumns: (table) =>
    `SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema()
       AND table_name = '${tableName(table)}' AND has_column_privilege(table_name::text, column_name::text, 'SELECT')`,
  auditChainTail: {
    setup: [
      `CREATE OR REPLACE FUNCTION audit_chain_tail() RETURNS TABLE (last_id bigint, last_hash text, login text)
         LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
       BEGIN
         LOCK TABLE audit_log IN SHARE ROW EXCLUSIVE MODE;
         RETURN QUERY SELECT a.id::bigint, a.hash, session_user::text FROM audit_log a ORDER BY a.id DESC LIMIT 1;
         IF NOT FOUND THEN RETURN QUERY SELECT NULL::bigint, NULL::text, session_user::text; END IF;
       END $$`,
    ],
    read: 'SELECT last_id AS id, last_hash AS hash, login AS member FROM audit_chain_tail()',
  },
  curationActsUnchanged: [],
};
