/**
 * Tests start PGlite from a saved, migrated data directory (test/support/pglite.ts): what it loads is the
 * study schema at its latest version, and a change made in one started copy never reaches the next;
 * a PGlite lent to one test reaches the next one as it was first loaded.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { latestStoreVersion, migratePostgres } from '../../../../main/db/store/migrate-store';
import { lentPglite, migratedPglite, PGLITE_START_TIMEOUT } from '../../../support/pglite';

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
    const latest = latestStoreVersion();
    expect(await migratePostgres(second.store)).toEqual({ from: latest, to: latest, applied: [] });
    expect(await second.store.get(`SELECT value FROM settings WHERE key = 'probe'`)).toBeUndefined();
    expect(await first.store.get(`SELECT value FROM settings WHERE key = 'probe'`)).toEqual({
      value: 'first',
    });
  },
  PGLITE_START_TIMEOUT,
);

describe('a PGlite lent to a test (lentPglite)', () => {
  it(
    'comes back empty, its identities restarted, and its closed store refuses',
    async () => {
      const first = await lentPglite();
      await first.run(`INSERT INTO settings (key, value) VALUES ('probe', 'first')`);
      const study = `INSERT INTO studies (name, created_at) VALUES ('S', '2026-01-01T00:00:00.000Z') RETURNING id`;
      expect(await first.get(study)).toEqual({ id: 1 });
      await first.close();
      expect(first.open).toBe(false);
      await expect(first.get('SELECT 1 AS one')).rejects.toThrow(/closed/);

      const second = await lentPglite();
      expect(await second.get(`SELECT value FROM settings WHERE key = 'probe'`)).toBeUndefined();
      expect(await second.get(study)).toEqual({ id: 1 });
      await second.close();
    },
    PGLITE_START_TIMEOUT,
  );

  it(
    'is not lent again when its test changed the schema',
    async () => {
      const changed = await lentPglite();
      await changed.run('DROP TRIGGER audit_log_no_change ON audit_log');
      await changed.close();

      const next = await lentPglite();
      expect(await next.get(`SELECT tgname FROM pg_trigger WHERE tgname = 'audit_log_no_change'`)).toEqual({
        tgname: 'audit_log_no_change',
      });
      await next.close();
    },
    PGLITE_START_TIMEOUT,
  );
});
