/**
 * PostgreSQL's migration runner. One migration history serves both engines: SQLite's schema up to 180
 * is its own migrations (main/db/migrations/); PostgreSQL starts from a baseline equal to it
 * (main/db/migrations/postgres/), recorded as version 180 in its version table; every migration after
 * 180 is a `StoreMigration` (main/db/migrations/store/), written once and applied by both engines'
 * runners, the pending ones in one transaction.
 */
import { DatabaseFromFutureError, type MigrationReport, type StoreMigration } from '../migrate';
import { POSTGRES_BASELINE, POSTGRES_BASELINE_VERSION } from '../migrations/postgres';
import { STORE_MIGRATIONS } from '../migrations/store';
import { VERSION_TABLE } from './dialect';
import type { Queryable, Store } from './types';

/** The study database's schema version, on either engine. */
export const storeSchemaVersion = async (tx: Queryable): Promise<number> =>
  (await tx.get<{ user_version: number }>(tx.dialect.readVersion))?.user_version ?? 0;

/** The schema version the latest migration brings a database to. */
export const latestStoreVersion = (later: readonly StoreMigration[] = STORE_MIGRATIONS): number =>
  later.at(-1)?.version ?? POSTGRES_BASELINE_VERSION;

const createBaseline = async (tx: Queryable): Promise<void> => {
  for (const statement of POSTGRES_BASELINE) await tx.run(statement);
  await tx.run(`INSERT INTO ${VERSION_TABLE} (version) VALUES (?)`, [POSTGRES_BASELINE_VERSION]);
};

/** Brings a PostgreSQL study database to the latest schema, in one transaction. */
export const migratePostgres = (
  store: Store,
  later: readonly StoreMigration[] = STORE_MIGRATIONS,
): Promise<MigrationReport> =>
  store.transaction(async (tx) => {
    await tx.run(`CREATE TABLE IF NOT EXISTS ${VERSION_TABLE} (version bigint NOT NULL)`);
    const from = await storeSchemaVersion(tx);
    const latest = latestStoreVersion(later);
    if (from > latest) throw new DatabaseFromFutureError(from, latest);
    const applied: string[] = [];
    if (from === 0) {
      await createBaseline(tx);
      applied.push(`baseline ${POSTGRES_BASELINE_VERSION}`);
    }
    for (const m of later.filter((m) => m.version > Math.max(from, POSTGRES_BASELINE_VERSION))) {
      for (const statement of m.statements(tx.dialect)) await tx.run(statement);
      await tx.run(tx.dialect.writeVersion(m.version));
      applied.push(m.name);
    }
    return { from, to: await storeSchemaVersion(tx), applied };
  });
