/**
 * The team's access rule (main/db/team/access.ts) names every table of the study schema, so a new
 * table cannot reach a team database without a decision on who may read and write it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { postgresSchema } from '../../../../main/db/store/catalog';
import { migratePostgres } from '../../../../main/db/store/migrate-store';
import { openPgliteStore } from '../../../../main/db/store/pglite-store';
import type { Store } from '../../../../main/db/store/types';
import { STUDY_TABLES, TEAM_TABLES } from '../../../../main/db/team/access';
import { PGLITE_START_TIMEOUT } from '../../../support/pglite';

let store: Store;
beforeAll(async () => {
  store = (await openPgliteStore()).store;
  await migratePostgres(store);
}, PGLITE_START_TIMEOUT);
afterAll(() => store?.close());

it('has a rule for every table of the study schema, and one only', async () => {
  const tables = Object.keys(await postgresSchema(store)).sort();
  const ruled = STUDY_TABLES.map((t) => t.table);
  expect([...ruled].sort()).toEqual(tables);
  expect(new Set(ruled).size).toBe(ruled.length);
  expect(TEAM_TABLES.map((t) => t.table)).toEqual(['schema_version', 'team_members', 'team_member_sites']);
});

it('lets only coordinators write besides the owner, and only rows of their sites', () => {
  for (const t of STUDY_TABLES.filter((a) => a.table !== 'workstations')) {
    expect(
      t.writers.every((w) => w === 'coordinator'),
      t.table,
    ).toBe(true);
    // Study-wide rows coordinators write: batches, and what their engines write as they send (the request
    // budget they take tokens from, the service's usage readings).
    if (t.writers.length && !['batches', 'request_budgets', 'usage_history'].includes(t.table))
      expect(t.reach.kind, t.table).toBe('site');
  }
});

it('lets every member write the row of their own workstation only, and read every workstation', () => {
  const w = STUDY_TABLES.find((a) => a.table === 'workstations')!;
  expect(w.reach.kind).toBe('study');
  expect([...w.writers].sort()).toEqual(['analyst', 'coordinator', 'monitor']);
  expect(w.writeRule).toContain('current_user');
});

it("keeps the paths of the files a workstation holds from analysts, and lets coordinators record their site's", () => {
  const f = STUDY_TABLES.find((a) => a.table === 'recording_files')!;
  expect(f.reach.kind).toBe('site');
  expect(f.writers).toEqual(['coordinator']);
  expect(f.identifying).toEqual(['path']);
});
