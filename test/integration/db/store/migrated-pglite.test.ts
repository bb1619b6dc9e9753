/**
 * Tests start PGlite from a saved, migrated data directory (test/support/pglite.ts): what it loads is the
 * study schema at its latest version, and a change made in one started copy never reaches the next.
 */
import { afterAll, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { migratePostgres } from '../../../../main/db/store/migrate-store';
import { migratedPglite, PGLITE_START_TIMEOUT } from '../../../support/pglite';

const opened: PGlite[] = [];
afterAll(async () => {
  for (const db of opened) await db.close();
});

it(
  'starts at the latest schema, each start a copy of its own',
  async () => {
    const first = await migratedPglite();
    opened.push(first.db);
    await first.store.run(`INSERT INTO settings (key, value) VALUES ('probe', 'first')`);
    const second = await migratedPglite();
    opened.push(second.db);
    expect(await migratePostgres(second.store)).toEqual({ from: 180, to: 180, applied: [] });
    expect(await second.store.get(`SELECT value FROM settings WHERE key = 'probe'`)).toBeUndefined();
    expect(await first.store.get(`SELECT value FROM settings WHERE key = 'probe'`)).toEqual({
      value: 'first',
    });
  },
  PGLITE_START_TIMEOUT,
);
