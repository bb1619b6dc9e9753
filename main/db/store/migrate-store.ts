/**
 * One migration history for both engines. SQLite's schema up to 180 is today's migrations
 * (main/db/migrations/, applied by `migrate`); PostgreSQL starts from a baseline equal to it
 * (main/db/migrations/postgres/), recorded as version 180 in its version table. Every migration after
 * 180 is a `StoreMigration`, written once for both engines (what differs taken from `tx.dialect`), and
 * the pending ones are applied in one transaction.
 */
import { DatabaseFromFutureError, type MigrationReport } from '../migrate';
import { POSTGRES_BASELINE, POSTGRES_BASELINE_VERSION } from '../migrations/postgres';
import { VERSION_TABLE } from './dialect';
import type { Queryable, Store } from './types';

export interface StoreMigration {
  readonly version: number;
  readonly name: string;
  up(tx: Queryable): Promise<void>;
}

/** The migrations after the baseline (180), for both engines, in order. */
export const STORE_MIGRATIONS: readonly StoreMigration[] = [];

/** The study database's schema version, on either engine. */
export const storeSchemaVersion = async (tx: Queryable): Promise<number> =>
  (await tx.get<{ user_version: number }>(tx.dialect.readVersion))?.user_version ?? 0;

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
    const latest = later.at(-1)?.version ?? POSTGRES_BASELINE_VERSION;
    if (from > latest) throw new DatabaseFromFutureError(from, latest);
    const applied: string[] = [];
    if (from === 0) {
      await createBaseline(tx);
      applied.push(`baseline ${POSTGRES_BASELINE_VERSION}`);
    }
    for (const m of later.filter((m) => m.version > Math.max(from, POSTGRES_BASELINE_VERSION))) {
      await m.up(tx);
      await tx.run(tx.dialect.writeVersion(m.version));
      applied.push(m.name);
    }
    return { from, to: await storeSchemaVersion(tx), applied };
  });
