/**
 * A long read (the export) goes through `store.snapshot`: on a study file it reads on a connection of
 * its own, so the store's other callers are not held back, and it sees the study as it was when it
 * began.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../../../main/db/store/sqlite-store';
import { freshStudyStore } from '../../../support/fresh-study-db';
import type { Store } from '../../../../main/db/store/types';

const PROFILE = `INSERT INTO service_profiles (id, name, base_url, api_version, created_at) VALUES (1, 'p', 'http://x', 'v1.3', 'now')`;
const study = (id: number) =>
  [`INSERT INTO studies (id, name, profile_id, created_at) VALUES (?, ?, 1, 'now')`, [id, `s${id}`]] as const;
const count = async (q: Pick<Store, 'get'>) =>
  (await q.get<{ n: number }>(`SELECT count(*) AS n FROM studies`))!.n;

let dir: string | null = null;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

describe('a snapshot of a study file', () => {
  it('leaves the store to its other callers while it reads, and sees none of their writes', async () => {
    dir = mkdtempSync(join(tmpdir(), 'vs-snapshot-'));
    const { store } = openSqliteStore(join(dir, 'study.sqlite'));
    await store.run(PROFILE);
    await store.run(...study(1));
    const seen = await store.snapshot(async (q) => {
      const before = await count(q);
      // Iterating the snapshot while the store writes and reads: neither waits for the other.
      const ids: number[] = [];
      for await (const row of q.iterate<{ id: number }>(`SELECT id FROM studies`)) {
        await store.run(...study(2));
        ids.push(row.id, await count(store), await count(q));
      }
      return { before, ids };
    });
    expect(seen).toEqual({ before: 1, ids: [1, 2, 1] });
    expect(await count(store)).toBe(2);
    await store.close();
  });

  it('in memory (one connection) is a transaction of the store', async () => {
    const store = freshStudyStore();
    await store.run(PROFILE);
    await store.run(...study(1));
    expect(await store.snapshot((q) => count(q))).toBe(1);
    await expect(store.snapshot(() => store.get(`SELECT 1`))).rejects.toThrow(/Inside a transaction/);
  });
});
