/**
 * The soak test's checks of the study database (test/soak/database-checks.ts) pass on a sound study and
 * find a row whose parent is missing on either engine, even one let in behind the engine's back (SQLite
 * with its foreign keys switched off; PostgreSQL with the triggers that enforce them switched off).
 */
import { describe, expect, it } from 'vitest';
import { openStudyDb } from '../../../main/db/open';
import { sqliteStore } from '../../../main/db/store/sqlite-store';
import type { Store } from '../../../main/db/store/types';
import { integrityChecks, quickCheck } from '../../soak/database-checks';
import { migratedPglite, PGLITE_START_TIMEOUT } from '../../support/pglite';

const ORPHAN = `INSERT INTO measure_values (recording_id, measure_key, participant_id, recorded_at, value_num)
                VALUES (999, 'wellbeing.score', 1, '2026-01-01T10:00:00Z', 1)`;
const FOREIGN_KEYS = /^every row's parent is there \((\d+) foreign keys/;

const verdicts = async (store: Store) =>
  Object.fromEntries((await integrityChecks(store)).map((c) => [c.name, c.violations]));
const foreignKeyCheck = (v: Record<string, readonly string[]>) => {
  const name = Object.keys(v).find((n) => FOREIGN_KEYS.test(n))!;
  return { keys: Number(FOREIGN_KEYS.exec(name)![1]), violations: v[name]! };
};

describe('on SQLite', () => {
  it('passes a sound study: PRAGMA checks ok, every foreign key read from the schema and none broken', async () => {
    const store = sqliteStore(openStudyDb(':memory:').db);
    expect(await quickCheck(store)).toEqual([]);
    const v = await verdicts(store);
    expect(v['PRAGMA integrity_check = ok']).toEqual([]);
    expect(v['PRAGMA foreign_key_check finds nothing']).toEqual([]);
    const fk = foreignKeyCheck(v);
    expect(fk.keys).toBeGreaterThan(20);
    expect(fk.violations).toEqual([]);
    await store.close();
  });

  it('finds a measure whose recording is missing, by PRAGMA and by the query both engines run', async () => {
    const opened = openStudyDb(':memory:');
    opened.db.pragma('foreign_keys = OFF');
    opened.db.exec(ORPHAN);
    const v = await verdicts(sqliteStore(opened.db));
    expect(v['PRAGMA foreign_key_check finds nothing']).toHaveLength(1);
    expect(foreignKeyCheck(v).violations).toEqual([
      expect.stringMatching(/^1 rows of measure_values name a missing recordings/),
    ]);
    opened.db.close();
  });
});

describe('on PostgreSQL (PGlite)', () => {
  it(
    'reads the same foreign keys from its catalog and finds the orphan its switched-off triggers let in; without amcheck, its integrity check fails',
    async () => {
      const { store, db } = await migratedPglite();
      try {
        // Where amcheck is not installed the integrity check fails rather than passing unchecked.
        expect(await quickCheck(store)).toEqual([expect.stringMatching(/^amcheck could not run/)]);
        const sound = foreignKeyCheck(await verdicts(store));
        expect(sound.violations).toEqual([]);
        const sqlite = sqliteStore(openStudyDb(':memory:').db);
        expect(sound.keys).toBe(foreignKeyCheck(await verdicts(sqlite)).keys);
        await sqlite.close();
        await db.exec(
          `SET session_replication_role = replica; ${ORPHAN}; SET session_replication_role = origin;`,
        );
        expect(foreignKeyCheck(await verdicts(store)).violations).toEqual([
          expect.stringMatching(/^1 rows of measure_values name a missing recordings/),
        ]);
      } finally {
        await store.close();
      }
    },
    PGLITE_START_TIMEOUT,
  );
});
