/**
 * Claims on a real PostgreSQL 15 server, where two workstations are two connections: a recording one
 * workstation is claiming (its transaction open) is skipped by the other, which takes the next one
 * instead of waiting; and two workstations asking for the same participant's account at the same
 * moment send one request between them (account-intents.repo.ts).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migratePostgres } from '../../../main/db/store/migrate-store';
import { connectPostgres } from '../../../main/db/store/connect';
import type { Store } from '../../../main/db/store/types';
import { beginAccountRequest } from '../../../main/db/repos/account-intents.repo';
import { claimNextUpload, heldQueuedRows } from '../../../main/db/repos/uploads.repo';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgres-cluster';
import { describeWithTool } from '../../support/reference-tools';

const AT = '2026-03-02T10:00:00.000Z';

describeWithTool('postgresql-15', 'upload claims on PostgreSQL 15', () => {
  let cluster: PostgresCluster;
  let a: Store;
  let b: Store;
  const connect = async () => {
    const c = await connectPostgres(cluster.address, cluster.password);
    if (!c.ok) throw new Error(c.error.message);
    return c.value;
  };

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    a = await connect();
    b = await connect();
    await migratePostgres(a);
    await a.run(
      `INSERT INTO service_profiles (id, name, base_url, api_version, created_at) VALUES (1, 'sandbox', 'http://127.0.0.1:1', 'v1.3', '${AT}')`,
    );
    await a.run(`INSERT INTO studies (id, name, profile_id, created_at) VALUES (1, 'Study', 1, '${AT}')`);
    await a.run(
      `INSERT INTO participants (id, study_id, code, account_id, created_at) VALUES (1, 1, 'P-1', 'acc-1', '${AT}'), (2, 1, 'P-2', NULL, '${AT}')`,
    );
    await a.run(
      `INSERT INTO batches (id, study_id, created_at, analyses, state) VALUES (1, 1, '${AT}', '["wellbeing"]', 'running')`,
    );
    for (let i = 1; i <= 2; i++)
      await a.run(
        `INSERT INTO recordings (id, study_id, participant_id, batch_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, upload_state, created_at)
         VALUES (${i}, 1, 1, 1, '/data/r${i}.wav', 'sha-${i}', 1000, '${AT}', 'manifest', 'queued', '${AT}')`,
      );
  }, 120_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    cluster?.stop();
  });

  it('skips the recording another workstation holds locked and takes the next, without waiting', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    // Workstation A has the oldest row locked, in a transaction still open.
    const aHolds = a.transaction(async (tx) => {
      const [row] = await heldQueuedRows(tx, 1, 'ws-a', [], 1, true);
      locked();
      await held;
      return Number(row!.id);
    });
    await isLocked;
    const started = Date.now();
    const taken = await claimNextUpload(b, AT, 1, { workstation: 'ws-b', leaseSeconds: 60 });
    const waited = Date.now() - started;
    release();
    expect(await aHolds).toBe(1);
    expect(Number(taken!.id)).toBe(2);
    expect(waited).toBeLessThan(5_000); // not blocked behind A's lock (A holds it until released)
    expect(await a.get<{ claimed_by: string }>(`SELECT claimed_by FROM recordings WHERE id = 2`)).toEqual({
      claimed_by: 'ws-b',
    });
  });

  it("lets one of two workstations asking at once request a participant's account", async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => beginAccountRequest(i % 2 ? a : b, 2, AT)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await a.all(`SELECT 1 FROM event_log WHERE kind = 'account_intent'`)).length).toBe(1);
  });
});
