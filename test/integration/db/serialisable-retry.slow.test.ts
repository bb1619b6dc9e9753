/**
 * Several workstations writing one participant's recordings at once on a real PostgreSQL 15 server:
 * every transaction is SERIALIZABLE, and each change of a recording's upload state or of an analysis
 * refreshes the participant's counters (their triggers). Writers of different recordings of one
 * participant must not abort one another until the store's retries run out: each life step of each
 * recording (claimed, uploaded with its analyses, each analysis completed) commits.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectPostgres } from '../../../main/db/store/connect';
import { migratePostgres } from '../../../main/db/store/migrate-store';
import { isConflictAbort, MAX_ATTEMPTS } from '../../../main/db/store/retry';
import type { Queryable, Store } from '../../../main/db/store/types';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgres-cluster';
import { describeWithTool } from '../../support/reference-tools';
import { seedRunningBatch } from '../../support/running-batch';

const AT = '2026-03-02T10:00:00.000Z';
/** As in the three-workstation test: three engines of three uploads each. */
const WRITERS = 9;
const RECORDINGS = 72;
const PARTICIPANTS = 3;

/** One recording's life, a repeatable transaction a step, as the engine writes it. */
const LIFE: readonly ((tx: Queryable, id: number) => Promise<unknown>)[] = [
  (tx, id) =>
    tx.run(`UPDATE recordings SET upload_state = 'uploading', upload_attempts = 1 WHERE id = ?`, [id]),
  async (tx, id) => {
    await tx.run(`UPDATE recordings SET upload_state = 'uploaded', recording_id = ? WHERE id = ?`, [
      `svc-${id}`,
      id,
    ]);
    for (const type of ['wellbeing', 'parkinsons'])
      await tx.run(
        `INSERT INTO analyses (recording_id, type, state, requested_at) VALUES (?, ?, 'processing', ?)`,
        [id, type, AT],
      );
  },
  (tx, id) =>
    tx.run(`UPDATE analyses SET state = 'completed' WHERE recording_id = ? AND type = 'wellbeing'`, [id]),
  (tx, id) =>
    tx.run(`UPDATE analyses SET state = 'completed' WHERE recording_id = ? AND type = 'parkinsons'`, [id]),
];

describeWithTool(
  'postgresql-15',
  "one participant's recordings written by several workstations at once",
  () => {
    let cluster: PostgresCluster;
    const stores: Store[] = [];

    beforeAll(async () => {
      cluster = await startPostgresCluster();
      for (let i = 0; i < WRITERS; i++) {
        const c = await connectPostgres(cluster.address, cluster.password);
        if (!c.ok) throw new Error(c.error.message);
        stores.push(c.value);
      }
      const s = stores[0]!;
      await migratePostgres(s);
      await seedRunningBatch(s, AT);
      for (let p = 2; p <= PARTICIPANTS; p++)
        await s.run(
          `INSERT INTO participants (id, study_id, code, account_id, created_at) VALUES (?, 1, ?, ?, ?)`,
          [p, `P-00${p}`, `acc-${p}`, AT],
        );
      for (let i = 1; i <= RECORDINGS; i++)
        await s.run(
          `INSERT INTO recordings (id, study_id, participant_id, batch_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, upload_state, created_at)
         VALUES (?, 1, ?, 1, ?, ?, 1000, ?, 'manifest', 'queued', ?)`,
          [
            i,
            1 + (i % PARTICIPANTS),
            `/data/r${i}.wav`,
            `sha-${i}`,
            `2026-03-01T09:${String(i % 60).padStart(2, '0')}:00Z`,
            AT,
          ],
        );
    }, 120_000);
    afterAll(async () => {
      for (const s of stores) await s.close();
      cluster?.stop();
    });

    it('commits every step of every recording, within the retries, and keeps the counters right', async () => {
      let attempts = 0;
      let steps = 0;
      let most = 0;
      const exhausted: string[] = [];
      let next = 1;
      const writer = async (store: Store) => {
        while (next <= RECORDINGS) {
          const id = next++;
          for (const step of LIFE) {
            let tries = 0;
            try {
              await store.transaction(
                (tx) => {
                  attempts++;
                  tries++;
                  return step(tx, id);
                },
                { repeatable: true },
              );
              steps++;
              most = Math.max(most, tries);
            } catch (e) {
              if (!isConflictAbort(e)) throw e;
              exhausted.push(`recording ${id}: ${(e as Error).message}`);
            }
          }
        }
      };
      const began = Date.now();
      await Promise.all(stores.map(writer));
      console.log(
        `${WRITERS} writers, ${RECORDINGS} recordings of ${PARTICIPANTS} participants: ${steps} steps committed,`,
        `${attempts - steps} attempts aborted by a conflict, at most ${most} attempts for one step (of ${MAX_ATTEMPTS}),`,
        `${exhausted.length} steps ran out of retries,`,
        `${Date.now() - began} ms`,
      );
      expect(exhausted).toEqual([]);
      expect(steps).toBe(RECORDINGS * LIFE.length);
      const counts = await stores[0]!.all<{ rec_count: number; rec_done: number }>(
        `SELECT rec_count, rec_done FROM participants ORDER BY id`,
      );
      expect(counts.map((c) => [Number(c.rec_count), Number(c.rec_done)])).toEqual(
        Array.from({ length: PARTICIPANTS }, () => [RECORDINGS / PARTICIPANTS, RECORDINGS / PARTICIPANTS]),
      );
    }, 300_000);
  },
);
