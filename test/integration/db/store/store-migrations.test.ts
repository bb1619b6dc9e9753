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

/** Sites, and each participant's site, with a data step: every participant starts at the main site. */
const sites: StoreMigration = {
  version: 900,
  name: '0900-sites',
  statements: () => [
    'CREATE TABLE sites (code TEXT PRIMARY KEY, name TEXT NOT NULL)',
    "INSERT INTO sites (code, name) VALUES ('main', 'Main site')",
    'ALTER TABLE participants ADD COLUMN site_code TEXT REFERENCES sites(code)',
    'CREATE INDEX participants_by_site ON participants(site_code)',
    "UPDATE participants SET site_code = 'main'",
  ],
};
/** A step whose second statement names a table that does not exist. */
const broken: StoreMigration = {
  version: 910,
  name: '0910-broken',
  statements: () => ['ALTER TABLE sites ADD COLUMN city TEXT', 'UPDATE no_such_table SET x = 1'],
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

const siteOfEveryParticipant = (store: Store) =>
  store.all<{ site_code: string; name: string }>(
    'SELECT p.site_code, s.name FROM participants p JOIN sites s ON s.code = p.site_code',
  );

// The tests run in order on the same two databases: a failed attempt, then the migration, then again.
describe('a migration written once for both engines', () => {
  it('leaves either engine as it was when one of the pending steps fails', async () => {
    expect(() => migrate(db, [...MIGRATIONS, onSqlite(sites), onSqlite(broken)])).toThrow(/no_such_table/);
    await expect(migratePostgres(postgres, [sites, broken])).rejects.toThrow(/no_such_table/);

    expect(schemaVersion(db)).toBe(180);
    expect(await storeSchemaVersion(postgres)).toBe(180);
    for (const store of [sqlite, postgres])
      await expect(store.all('SELECT code FROM sites')).rejects.toThrow(/sites/);
  });

  it('brings SQLite and PostgreSQL to the same schema and the same rows', async () => {
    expect(migrate(db, [...MIGRATIONS, onSqlite(sites)]).applied).toEqual(['0900-sites']);
    expect(await migratePostgres(postgres, [sites])).toEqual({ from: 180, to: 900, applied: ['0900-sites'] });

    expect(await postgresSchema(postgres)).toEqual(await sqliteSchema(sqlite));
    expect(await siteOfEveryParticipant(sqlite)).toEqual([{ site_code: 'main', name: 'Main site' }]);
    expect(await siteOfEveryParticipant(postgres)).toEqual([{ site_code: 'main', name: 'Main site' }]);
    expect(await storeSchemaVersion(sqlite)).toBe(900);
    expect(await storeSchemaVersion(postgres)).toBe(900);
  });

  it('is applied once', async () => {
    expect(migrate(db, [...MIGRATIONS, onSqlite(sites)]).applied).toEqual([]);
    expect(await migratePostgres(postgres, [sites])).toEqual({ from: 900, to: 900, applied: [] });
  });
});

describe("SQLite's history", () => {
  it('ends with every migration after 180, in order, after its own', () => {
    const versions = MIGRATIONS.map((m) => m.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(versions.slice(versions.indexOf(180) + 1)).toEqual(STORE_MIGRATIONS.map((m) => m.version));
  });
});
