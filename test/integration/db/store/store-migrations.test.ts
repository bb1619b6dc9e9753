/**
 * One migration history: a migration after 180 is written once (`StoreMigration`) and both engines
 * apply it, SQLite after its own migrations and PostgreSQL after its baseline, each in one transaction,
 * to the same schema; a step that fails leaves either engine as it was.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, onSqlite, schemaVersion, type StoreMigration } from '../../../../main/db/migrate';
import { MIGRATIONS } from '../../../../main/db/migrations';
import { STORE_MIGRATIONS } from '../../../../main/db/migrations/store';
import { postgresSchema, sqliteSchema } from '../../../../main/db/store/catalog';
import { migratePostgres, storeSchemaVersion } from '../../../../main/db/store/migrate-store';
import { openPgliteStore } from '../../../../main/db/store/pglite-store';
import { sqliteStore } from '../../../../main/db/store/sqlite-store';
import type { Store } from '../../../../main/db/store/types';
import { PGLITE_START_TIMEOUT } from '../../../support/pglite';

/** Regions, and each participant's region, with a data step: every participant starts in the north. */
const sites: StoreMigration = {
  version: 900,
  name: '0900-regions',
  statements: () => [
    'CREATE TABLE regions (code TEXT PRIMARY KEY, name TEXT NOT NULL)',
    "INSERT INTO regions (code, name) VALUES ('north', 'North')",
    'ALTER TABLE participants ADD COLUMN region_code TEXT REFERENCES regions(code)',
    'CREATE INDEX participants_by_region ON participants(region_code)',
    "UPDATE participants SET region_code = 'north'",
  ],
};
/** A step whose second statement names a table that does not exist. */
const broken: StoreMigration = {
  version: 910,
  name: '0910-broken',
  statements: () => ['ALTER TABLE regions ADD COLUMN city TEXT', 'UPDATE no_such_table SET x = 1'],
};

const PARTICIPANT =
  "INSERT INTO participants (study_id, code, created_at) VALUES (?, 'P01', '2026-01-01T00:00:00.000Z')";
const STUDY = "INSERT INTO studies (name, created_at) VALUES ('S', '2026-01-01T00:00:00.000Z') RETURNING id";

/** Both engines at 180 with one participant: SQLite in memory, PostgreSQL on PGlite at its baseline. */
let db: Database.Database;
let sqlite: Store;
let postgres: Store;
beforeAll(async () => {
  db = new Database(':memory:');
  migrate(
    db,
    MIGRATIONS.filter((m) => m.version <= 180),
  );
  sqlite = sqliteStore(db);
  postgres = (await openPgliteStore()).store;
  await migratePostgres(postgres, []);
  for (const store of [sqlite, postgres]) {
    const study = await store.get<{ id: number }>(STUDY);
    await store.run(PARTICIPANT, [study!.id]);
  }
}, PGLITE_START_TIMEOUT);
afterAll(async () => {
  await sqlite?.close();
  await postgres?.close();
});

const regionOfEveryParticipant = (store: Store) =>
  store.all<{ region_code: string; name: string }>(
    'SELECT p.region_code, r.name FROM participants p JOIN regions r ON r.code = p.region_code',
  );

// The tests run in order on the same two databases: a failed attempt, then the migration, then again.
describe('a migration written once for both engines', () => {
  it('leaves either engine as it was when one of the pending steps fails', async () => {
    expect(() => migrate(db, [...MIGRATIONS, onSqlite(sites), onSqlite(broken)])).toThrow(/no_such_table/);
    await expect(migratePostgres(postgres, [sites, broken])).rejects.toThrow(/no_such_table/);

    expect(schemaVersion(db)).toBe(180);
    expect(await storeSchemaVersion(postgres)).toBe(180);
    for (const store of [sqlite, postgres])
      await expect(store.all('SELECT code FROM regions')).rejects.toThrow(/regions/);
  });

  it('brings SQLite and PostgreSQL to the same schema and the same rows', async () => {
    const applied = [...STORE_MIGRATIONS.map((m) => m.name), '0900-regions'];
    expect(migrate(db, [...MIGRATIONS, onSqlite(sites)]).applied).toEqual(applied);
    expect(await migratePostgres(postgres, [...STORE_MIGRATIONS, sites])).toEqual({
      from: 180,
      to: 900,
      applied,
    });

    expect(await postgresSchema(postgres)).toEqual(await sqliteSchema(sqlite));
    expect(await regionOfEveryParticipant(sqlite)).toEqual([{ region_code: 'north', name: 'North' }]);
    expect(await regionOfEveryParticipant(postgres)).toEqual([{ region_code: 'north', name: 'North' }]);
    expect(await storeSchemaVersion(sqlite)).toBe(900);
    expect(await storeSchemaVersion(postgres)).toBe(900);
  });

  it('is applied once', async () => {
    expect(migrate(db, [...MIGRATIONS, onSqlite(sites)]).applied).toEqual([]);
    expect(await migratePostgres(postgres, [...STORE_MIGRATIONS, sites])).toEqual({
      from: 900,
      to: 900,
      applied: [],
    });
  });
});

describe("SQLite's history", () => {
  it('ends with every migration after 180, in order, after its own', () => {
    const versions = MIGRATIONS.map((m) => m.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(versions.slice(versions.indexOf(180) + 1)).toEqual(STORE_MIGRATIONS.map((m) => m.version));
  });
});
