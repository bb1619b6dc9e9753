/**
 * The store on a real PostgreSQL 15 server, for what PGlite (one connection) cannot show: transactions
 * on several connections at once, and the retry rule (main/db/store/retry.ts) against a real
 * serialisation failure.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { databaseVersion } from '../../../../main/db/repos/change.repo';
import { openPgStore } from '../../../../main/db/store/pg-store';
import type { Queryable, Store } from '../../../../main/db/store/types';
import { startPostgresCluster, type PostgresCluster } from '../../../support/postgres-cluster';
import { describeWithTool } from '../../../support/reference-tools';

describeWithTool('postgresql-15', 'the store on a PostgreSQL server', () => {
  let cluster: PostgresCluster;
  let store: Store;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
    const { host, port, user, password, database } = cluster;
    store = openPgStore({ host, port, user, password, database, max: 4 });
    await store.run(`CREATE TABLE shifts (id ${store.dialect.identityColumn}, doctor text NOT NULL)`);
  });
  afterAll(async () => {
    await store?.close();
    cluster?.stop();
  });

  /**
   * Two transactions each read how many doctors are on call and, seeing one, add one more: run side by
   * side under SERIALIZABLE, PostgreSQL aborts one of them (40001, serialisation failure).
   */
  const writeSkew = async (repeatable: boolean) => {
    await store.run('DELETE FROM shifts');
    await store.run('INSERT INTO shifts (doctor) VALUES (?)', ['first']);
    let attempts = 0;
    let bothRead = () => {};
    const barrier = new Promise<void>((r) => (bothRead = r));
    let reads = 0;
    const addDoctor = (name: string) => async (tx: Queryable) => {
      const first = ++attempts <= 2;
      const { n } = (await tx.get<{ n: number }>('SELECT COUNT(*) AS n FROM shifts'))!;
      if (first && ++reads === 2) bothRead();
      if (first) await barrier;
      if (n < 3) await tx.run('INSERT INTO shifts (doctor) VALUES (?)', [name]);
      return n;
    };
    const outcomes = await Promise.allSettled([
      store.transaction(addDoctor('second'), { repeatable }),
      store.transaction(addDoctor('third'), { repeatable }),
    ]);
    const rows = await store.all<{ doctor: string }>('SELECT doctor FROM shifts ORDER BY id');
    return { outcomes, attempts, doctors: rows.map((r) => r.doctor) };
  };

  it('retries a repeatable transaction that PostgreSQL aborted for a serialisation failure', async () => {
    const { outcomes, attempts, doctors } = await writeSkew(true);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(attempts).toBe(3);
    // The retried one saw the other's doctor: the result is as if they had run one after the other.
    expect(outcomes.map((o) => (o as PromiseFulfilledResult<number>).value).sort()).toEqual([1, 2]);
    expect(doctors).toHaveLength(3);
  });

  it('never retries a transaction not marked repeatable: the abort reaches its caller', async () => {
    const { outcomes, attempts, doctors } = await writeSkew(false);
    const failed = outcomes.filter((o) => o.status === 'rejected');
    expect(failed).toHaveLength(1);
    expect((failed[0] as PromiseRejectedResult).reason).toMatchObject({ code: '40001' });
    expect(attempts).toBe(2);
    expect(doctors).toHaveLength(2);
  });

  it('rolls a transaction back on its own connection while another commits beside it', async () => {
    await store.run('DELETE FROM shifts');
    const outcomes = await Promise.allSettled([
      store.transaction(async (tx) => {
        await tx.run('INSERT INTO shifts (doctor) VALUES (?)', ['kept']);
      }),
      store.transaction(async (tx) => {
        await tx.run('INSERT INTO shifts (doctor) VALUES (?)', ['lost']);
        throw new Error('changed my mind');
      }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected']);
    expect(await store.all('SELECT doctor FROM shifts')).toEqual([{ doctor: 'kept' }]);
  });

  it('iterates a large result through a cursor on its own connection', async () => {
    await store.run('DELETE FROM shifts');
    await store.run('INSERT INTO shifts (doctor) SELECT ? || g FROM generate_series(1, 1234) AS g', ['d']);
    let n = 0;
    for await (const _ of store.iterate('SELECT doctor FROM shifts WHERE doctor LIKE ?', ['d%'])) n++;
    expect(n).toBe(1234);
  });

  it('reads the write stamp (a cache key) as a login that is no superuser, and a committed write changes it', async () => {
    const before = await databaseVersion(store);
    expect(await databaseVersion(store)).toBe(before);
    await store.transaction((tx) => tx.run('INSERT INTO shifts (doctor) VALUES (?)', ['stamp']));
    expect(await databaseVersion(store)).not.toBe(before);
  });
});
