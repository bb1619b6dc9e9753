/**
 * PGlite in tests. Starting an empty PGlite runs PostgreSQL's initdb in WebAssembly: about 7 s of CPU,
 * and several times that in wall time on a loaded machine. `migratedPglite` starts one from a saved data
 * directory instead (about 1 s), with the study schema already applied: the first call on this computer
 * creates, migrates and saves it in the temporary folder, under a name that changes with PGlite's
 * version and with the PostgreSQL migrations, so a stale one is never loaded. `lentPglite` goes
 * further for the suites that open a store per test: a store's PGlite, once closed, is emptied (every
 * table but the schema's version truncated, identities restarted: about 0.2 s) and lent to the worker's
 * next test instead of starting another (2-3 s of CPU each).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { POSTGRES_BASELINE } from '../../main/db/migrations/postgres';
import { STORE_MIGRATIONS } from '../../main/db/migrations/store';
import { POSTGRES } from '../../main/db/store/dialect';
import { migratePostgres } from '../../main/db/store/migrate-store';
import { openPgliteStore, pgliteStore, type PgliteConnection } from '../../main/db/store/pglite-store';
import type { Store } from '../../main/db/store/types';

/** Time for a file's `beforeAll` that starts PGlite (an empty one; a migrated one needs far less). */
export const PGLITE_START_TIMEOUT = 120_000;

const pgliteVersion = (): string =>
  (
    JSON.parse(
      readFileSync(join(import.meta.dirname, '../../node_modules/@electric-sql/pglite/package.json'), 'utf8'),
    ) as { version: string }
  ).version;

const savedPath = (): string => {
  const hash = createHash('sha256')
    .update(pgliteVersion())
    .update(JSON.stringify(POSTGRES_BASELINE))
    .update(JSON.stringify(STORE_MIGRATIONS.map((m) => [m.version, m.name, m.statements(POSTGRES)])))
    .digest('hex')
    .slice(0, 16);
  return join(tmpdir(), `voicescope-pglite-study-${hash}.tar`);
};

/** A PGlite with the study schema at its latest version, as a store. */
export const migratedPglite = async (): Promise<{ store: Store; db: PGlite }> => {
  const path = savedPath();
  if (existsSync(path)) return openPgliteStore(new Blob([readFileSync(path)]));
  const opened = await openPgliteStore();
  await migratePostgres(opened.store);
  const image = Buffer.from(await (await opened.db.dumpDataDir('none')).arrayBuffer());
  const partial = `${path}.${process.pid}`;
  writeFileSync(partial, image);
  renameSync(partial, path);
  return opened;
};

/** This worker's PGlites whose stores were closed, emptied, waiting for the next test. */
const idle: PGlite[] = [];

/**
 * The schema and session as a test may have changed them (a dropped trigger, a new column, a policy, a
 * role, a setting): a PGlite whose shape differs when its store closes is closed, not lent again.
 */
const SHAPE = `SELECT md5(string_agg(x, '|' ORDER BY x)) AS shape FROM (
  SELECT 'c ' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '') AS x
    FROM information_schema.columns WHERE table_schema = 'public'
  UNION ALL SELECT 't ' || tgrelid::regclass::text || '.' || tgname || ' ' || tgenabled::text FROM pg_trigger WHERE NOT tgisinternal
  UNION ALL SELECT 'k ' || conrelid::regclass::text || '.' || conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint WHERE connamespace = 'public'::regnamespace
  UNION ALL SELECT 'i ' || indexrelid::regclass::text || ' ' || pg_get_indexdef(indexrelid) FROM pg_index WHERE indrelid IN (SELECT oid FROM pg_class WHERE relnamespace = 'public'::regnamespace)
  UNION ALL SELECT 'f ' || proname || ' ' || md5(prosrc) FROM pg_proc WHERE pronamespace = 'public'::regnamespace
  UNION ALL SELECT 'r ' || relname || ' ' || relrowsecurity::text || relforcerowsecurity::text FROM pg_class WHERE relnamespace = 'public'::regnamespace
  UNION ALL SELECT 'p ' || tablename || '.' || policyname FROM pg_policies
  UNION ALL SELECT 'u ' || rolname FROM pg_roles
  UNION ALL SELECT 's ' || name || '=' || setting FROM pg_settings WHERE source = 'session'
) parts`;
const shapeOf = async (db: PGlite): Promise<string> =>
  (await db.query<{ shape: string }>(SHAPE)).rows[0]!.shape;

/** Back to the state `migratedPglite` starts in: the schema, and no row but its version. */
const emptied = async (db: PGlite): Promise<PGlite> => {
  const { rows } = await db.query<{ name: string }>(
    `SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_version'`,
  );
  // A transaction its test left open is ended; the append-only logs' triggers are not fired by the reset.
  await db.exec(
    `ROLLBACK; SET session_replication_role = replica; ` +
      `TRUNCATE ${rows.map((r) => r.name).join(', ')} RESTART IDENTITY CASCADE; ` +
      `SET session_replication_role = DEFAULT`,
  );
  return db;
};

/** Lent again when its test left the schema and session as it found them; closed otherwise. */
const giveBack = async (db: PGlite, shape: string): Promise<void> => {
  await db.exec('ROLLBACK');
  if ((await shapeOf(db)) === shape) idle.push(await emptied(db));
  else await db.close();
};

/**
 * A migrated PGlite as a store whose `close` gives its PGlite back to this worker, emptied, for the next
 * test. Once closed, the store is closed for its holder: `open` is false and every query refuses, as on a
 * PGlite that was closed.
 */
export const lentPglite = async (): Promise<Store> => {
  const db = idle.pop() ?? (await migratedPglite()).db;
  const shape = await shapeOf(db);
  let returned = false;
  const lease: PgliteConnection = {
    query: ((text: string, params?: unknown[]) => {
      if (returned) return Promise.reject(new Error('PGlite is closed'));
      return db.query(text, params);
    }) as PGlite['query'],
    get closed() {
      return returned;
    },
    close: async () => {
      if (returned) return;
      returned = true;
      await giveBack(db, shape);
    },
  };
  return pgliteStore(lease);
};
