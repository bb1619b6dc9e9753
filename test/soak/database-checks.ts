/**
 * The soak's checks of the study database itself, after kills and at the end, on either engine: what
 * each engine offers to verify its own files (SQLite's PRAGMA checks; PostgreSQL's amcheck), and one
 * query that runs on both and finds any row whose parent is missing. Every read goes through the store.
 */
import type { Queryable, Store } from '../../main/db/store/types';
import type { Check } from './soak-checks';

/** The schema where the soak's own cluster installs amcheck (soak-engine.ts), away from the study's tables. */
export const AMCHECK_SCHEMA = 'amcheck';

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** PRAGMA quick_check or integrity_check: one row `ok`, or one row per problem found. */
const sqlitePragma = async (q: Queryable, pragma: 'quick_check' | 'integrity_check') => {
  const rows = await q.all<Record<string, string>>(`PRAGMA ${pragma}`);
  const said = rows.map((r) => String(Object.values(r)[0]));
  return said.length === 1 && said[0] === 'ok' ? [] : said;
};

/**
 * amcheck on every table of the study: each heap page and row well formed (verify_heapam, with the
 * TOAST data it points to), each B-tree index well formed (bt_index_check) and, when `everyRow`, holding
 * every row of its table (heapallindexed). The same ground as SQLite's quick_check (`everyRow` false)
 * and integrity_check (true).
 */
const amcheck = async (q: Queryable, everyRow: boolean): Promise<{ checked: string; broken: string[] }> => {
  try {
    const heap = await q.all<{ rel: string; blkno: number; offnum: number; msg: string }>(
      `SELECT c.relname AS rel, v.blkno, v.offnum, v.msg
         FROM pg_class c CROSS JOIN LATERAL ${AMCHECK_SCHEMA}.verify_heapam(c.oid, check_toast => true) v
        WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r'`,
    );
    const indexes = await q.all<{ idx: string }>(
      `SELECT c.relname AS idx FROM pg_index i
         JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
        WHERE c.relnamespace = 'public'::regnamespace AND a.amname = 'btree' AND i.indisvalid AND i.indisready`,
    );
    if (indexes.length === 0)
      return { checked: 'nothing', broken: ['amcheck found no index to verify in the study database'] };
    const broken: string[] = [];
    for (const { idx } of indexes) {
      try {
        await q.get(`SELECT ${AMCHECK_SCHEMA}.bt_index_check(?::regclass, ${everyRow})`, [`public."${idx}"`]);
      } catch (e) {
        broken.push(`index ${idx}: ${message(e)}`);
      }
    }
    const tables = await q.get<{ n: number }>(
      `SELECT count(*) AS n FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'r'`,
    );
    return {
      checked: `${Number(tables?.n)} tables, ${indexes.length} B-tree indexes`,
      broken: [...heap.map((h) => `table ${h.rel} page ${h.blkno} row ${h.offnum}: ${h.msg}`), ...broken],
    };
  } catch (e) {
    return { checked: 'nothing', broken: [`amcheck could not run: ${message(e)}`] };
  }
};

/** The cheap check after each kill: SQLite's quick_check, or amcheck without matching indexes to rows. */
export const quickCheck = (store: Store): Promise<string[]> =>
  store.engine === 'sqlite'
    ? sqlitePragma(store, 'quick_check')
    : amcheck(store, false).then((a) => a.broken);

interface ForeignKey {
  readonly name: string;
  readonly child: string;
  readonly parent: string;
  readonly columns: { col: string; parentCol: string }[];
  readonly validated: boolean;
}

interface ForeignKeyColumn {
  name: string;
  child: string;
  parent: string;
  col: string;
  parent_col: string;
  validated: number;
}

/**
 * Every foreign key of the study's tables, one row per column, read from each engine's catalog (a
 * SQLite key without its parent's columns refers to the parent's primary key).
 */
const FOREIGN_KEY_COLUMNS = {
  sqlite: `SELECT m.name || '#' || f.id AS name, m.name AS child, f."table" AS parent, f."from" AS col,
                  coalesce(f."to", (SELECT t.name FROM pragma_table_info(f."table") t WHERE t.pk = f.seq + 1)) AS parent_col,
                  1 AS validated
             FROM sqlite_master m JOIN pragma_foreign_key_list(m.name) f
            WHERE m.type = 'table' ORDER BY m.name, f.id, f.seq`,
  postgres: `SELECT c.conname AS name, cc.relname AS child, pc.relname AS parent, a.attname AS col,
                    b.attname AS parent_col, CASE WHEN c.convalidated THEN 1 ELSE 0 END AS validated
               FROM pg_constraint c
               JOIN pg_class cc ON cc.oid = c.conrelid JOIN pg_class pc ON pc.oid = c.confrelid
               CROSS JOIN LATERAL unnest(c.conkey, c.confkey) WITH ORDINALITY AS k(ck, fk, ord)
               JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.ck
               JOIN pg_attribute b ON b.attrelid = c.confrelid AND b.attnum = k.fk
              WHERE c.contype = 'f' AND c.connamespace = 'public'::regnamespace
              ORDER BY c.conname, k.ord`,
} as const;

const foreignKeys = async (store: Store): Promise<ForeignKey[]> => {
  const keys = new Map<string, ForeignKey>();
  for (const r of await store.all<ForeignKeyColumn>(FOREIGN_KEY_COLUMNS[store.engine])) {
    const key = keys.get(r.name) ?? {
      name: r.name,
      child: r.child,
      parent: r.parent,
      columns: [],
      validated: Number(r.validated) === 1,
    };
    key.columns.push({ col: r.col, parentCol: r.parent_col });
    keys.set(r.name, key);
  }
  return [...keys.values()];
};

/**
 * Rows of `key.child` that name a parent row which is not there. Written once for both engines: a key
 * with a null column refers to nothing (MATCH SIMPLE on both), so only rows with every column set count.
 */
const orphans = async (q: Queryable, key: ForeignKey): Promise<number> => {
  const set = key.columns.map((c) => `x."${c.col}" IS NOT NULL`).join(' AND ');
  const match = key.columns.map((c) => `p."${c.parentCol}" = x."${c.col}"`).join(' AND ');
  const row = await q.get<{ n: number }>(
    `SELECT count(*) AS n FROM "${key.child}" x
      WHERE ${set} AND NOT EXISTS (SELECT 1 FROM "${key.parent}" p WHERE ${match})`,
  );
  return Number(row?.n ?? 0);
};

/**
 * The engine's own checks of the whole database, then the engine-neutral one for foreign keys.
 *
 * SQLite: integrity_check (pages, records and that every index holds exactly its table's rows) and
 * foreign_key_check. PostgreSQL: amcheck over every table and index (above). PostgreSQL itself
 * enforces every foreign key on each write, inside the writing transaction (a killed client's open
 * transaction is rolled back whole), so an orphan there could only come from a key not validated
 * (`NOT VALID`) or its triggers switched off (`session_replication_role = replica`): the check that
 * every key is validated says the first; the orphan query below finds what either would let in.
 */
export const integrityChecks = async (store: Store): Promise<Check[]> => {
  const checks: Check[] = [];
  if (store.engine === 'sqlite') {
    checks.push({
      name: 'PRAGMA integrity_check = ok',
      violations: await sqlitePragma(store, 'integrity_check'),
    });
    const fk = await store.all<Record<string, unknown>>(`PRAGMA foreign_key_check`);
    checks.push({
      name: 'PRAGMA foreign_key_check finds nothing',
      violations: fk.map((x) => JSON.stringify(x)),
    });
  } else {
    const a = await amcheck(store, true);
    checks.push({
      name: `amcheck: every table and B-tree index well formed, every row in each of its indexes (${a.checked})`,
      violations: a.broken,
    });
  }
  const keys = await foreignKeys(store);
  const unvalidated = keys.filter((k) => !k.validated).map((k) => `${k.name} is not validated`);
  const orphaned: string[] = [];
  for (const key of keys) {
    const n = await orphans(store, key);
    if (n > 0) orphaned.push(`${n} rows of ${key.child} name a missing ${key.parent} (${key.name})`);
  }
  checks.push({
    name: `every row's parent is there (${keys.length} foreign keys, each validated, queried for orphans)`,
    violations: keys.length === 0 ? ['the catalog lists no foreign key'] : [...unvalidated, ...orphaned],
  });
  return checks;
};
