/**
 * The store's contract, the same on both engines: SQLite (a study file opened as today) and
 * PostgreSQL (PGlite, in-process). Several connections, conflicts and TLS are in
 * store-postgres.slow.test.ts, on a real server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { likePattern } from '../../../../main/db/store/dialect';
import { openPgliteStore, pgliteStore } from '../../../../main/db/store/pglite-store';
import { openSqliteStore } from '../../../../main/db/store/sqlite-store';
import type { Store } from '../../../../main/db/store/types';
import { PGLITE_START_TIMEOUT } from '../../../support/pglite';

const dir = mkdtempSync(join(tmpdir(), 'vs-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// One PGlite for the file (starting one costs about 5 s of CPU); each test gets a fresh schema in it.
let pglite: PGlite | undefined;
beforeAll(async () => {
  pglite = (await openPgliteStore()).db;
}, PGLITE_START_TIMEOUT);
afterAll(async () => pglite?.close());
const freshPglite = async (): Promise<Store> => {
  const db = pglite!;
  await db.exec('DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;');
  const store = pgliteStore(db);
  return { ...store, close: async () => undefined };
};

const engines: [string, () => Promise<Store>][] = [
  ['SQLite', async () => openSqliteStore(join(dir, `s${Math.random()}.db`)).store],
  ['PostgreSQL (PGlite)', freshPglite],
];

const withThings = async (open: () => Promise<Store>): Promise<Store> => {
  const store = await open();
  await store.run(
    `CREATE TABLE things (id ${store.dialect.identityColumn}, name text NOT NULL UNIQUE, meta text)`,
  );
  return store;
};

describe.each(engines)('the store on %s', (_, open) => {
  it('runs statements with ? placeholders, reads rows back, and counts changes', async () => {
    const s = await withThings(open);
    const r = await s.run('INSERT INTO things (name, meta) VALUES (?, ?), (?, ?)', [
      'a?',
      '{"k":"x"}',
      'b',
      null,
    ]);
    expect(r.changes).toBe(2);
    const rows = await s.all<{ name: string; k: string | null }>(
      `SELECT name, ${s.dialect.jsonText('meta', 'k')} AS k FROM things WHERE name <> '?' ORDER BY name`,
    );
    expect(rows).toEqual([
      { name: 'a?', k: 'x' },
      { name: 'b', k: null },
    ]);
    expect(await s.get<{ n: number }>('SELECT COUNT(*) AS n FROM things')).toEqual({ n: 2 });
    await s.close();
  });

  it('upserts by the dialect, and escapes LIKE patterns', async () => {
    const s = await withThings(open);
    const upsert = s.dialect.upsert('things', ['name', 'meta'], ['name'], ['meta']);
    await s.run(upsert, ['50%_off', '1']);
    await s.run(upsert, ['50%_off', '2']);
    await s.run(upsert, ['500 off', '3']);
    const found = await s.all<{ meta: string }>(`SELECT meta FROM things WHERE ${s.dialect.like('name')}`, [
      likePattern('%_'),
    ]);
    expect(found).toEqual([{ meta: '2' }]);
    await s.close();
  });

  it('commits a transaction that resolves and rolls back one that throws', async () => {
    const s = await withThings(open);
    await s.transaction(async (tx) => {
      await tx.run('INSERT INTO things (name) VALUES (?)', ['kept']);
    });
    await expect(
      s.transaction(async (tx) => {
        await tx.run('INSERT INTO things (name) VALUES (?)', ['lost']);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await s.all('SELECT name FROM things')).toEqual([{ name: 'kept' }]);
    await s.close();
  });

  it('keeps a query from outside out of an open transaction, which it waits for', async () => {
    const s = await withThings(open);
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const tx = s.transaction(async (t) => {
      await t.run('INSERT INTO things (name) VALUES (?)', ['inside']);
      await gate;
      throw new Error('rolled back');
    });
    const outside = s.run('INSERT INTO things (name) VALUES (?)', ['outside']);
    release();
    await expect(tx).rejects.toThrow('rolled back');
    await outside;
    expect(await s.all('SELECT name FROM things')).toEqual([{ name: 'outside' }]);
    await s.close();
  });

  it('refuses the store itself inside a transaction, and a handle after its transaction ended', async () => {
    const s = await withThings(open);
    let kept: Parameters<Parameters<Store['transaction']>[0]>[0] | undefined;
    await s.transaction(async (tx) => {
      kept = tx;
      await expect(s.all('SELECT 1 AS one')).rejects.toThrow('use the handle');
    });
    expect(() => kept!.all('SELECT 1 AS one')).toThrow('transaction has ended');
    await s.close();
  });

  it('iterates a large result a batch at a time, inside and outside a transaction', async () => {
    const s = await withThings(open);
    await s.transaction(async (tx) => {
      for (let i = 0; i < 1234; i++) await tx.run('INSERT INTO things (name) VALUES (?)', [`n${i}`]);
    });
    let n = 0;
    for await (const _ of s.iterate('SELECT name FROM things WHERE id > ?', [0])) n++;
    expect(n).toBe(1234);
    const inTx = await s.transaction(async (tx) => {
      let m = 0;
      for await (const _ of tx.iterate('SELECT name FROM things')) if (++m === 700) break;
      return (await tx.get<{ n: number }>('SELECT COUNT(*) AS n FROM things'))!.n + m;
    });
    expect(inTx).toBe(1934);
    await s.close();
  });
});

describe('a store that was closed', () => {
  it('says so, so that work still in flight stops storing', async () => {
    const { store } = openSqliteStore(join(dir, 'closed.db'));
    expect(store.open).toBe(true);
    await store.close();
    expect(store.open).toBe(false);
  });
});
