import { expect, it } from 'vitest';
import { openStudyDb } from '../../../main/db/open';
import { findRefusedCopy, findSameContent } from '../../../main/db/repos/duplicates.repo';
import { sqliteStore } from '../../../main/db/store/sqlite-store';

it('finds earlier recordings of the same audio for the same participant only, from the index', async () => {
  const { db } = openStudyDb(':memory:');
  const store = sqliteStore(db);
  db.prepare(`INSERT INTO studies (id, name, created_at) VALUES (1, 'S', 'now')`).run();
  db.prepare(
    `INSERT INTO participants (id, study_id, code, created_at) VALUES (1, 1, 'P1', 'now'), (2, 1, 'P2', 'now')`,
  ).run();
  const add =
    db.prepare(`INSERT INTO recordings (study_id, participant_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, upload_state, created_at)
                          VALUES (1, ?, ?, ?, 1, 'now', 'manifest', ?, 'now')`);
  add.run(1, '/a/week1.wav', 'h1', 'uploaded');
  add.run(1, '/b/week1-copy.wav', 'h1', 'cancelled');
  add.run(2, '/a/other.wav', 'h1', 'uploaded');
  add.run(1, '/a/week2.wav', 'h2', 'queued');
  expect(await findSameContent(store, 1, 'h1')).toEqual([
    { id: 1, sourcePath: '/a/week1.wav', uploadState: 'uploaded', batchId: null, inUnstartedBatch: false },
  ]);
  expect(await findSameContent(store, 1, 'h3')).toEqual([]);
  const plan = (
    db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT id FROM recordings WHERE participant_id = 1 AND content_sha256 = 'h1'`,
      )
      .all() as { detail: string }[]
  )
    .map((r) => r.detail)
    .join();
  expect(plan).toMatch(/recordings_by_hash/);
});

it('finds the earliest copy refused locally, so a re-import adds no second refused row', async () => {
  const { db } = openStudyDb(':memory:');
  const store = sqliteStore(db);
  db.prepare(`INSERT INTO studies (id, name, created_at) VALUES (1, 'S', 'now')`).run();
  db.prepare(
    `INSERT INTO participants (id, study_id, code, created_at) VALUES (1, 1, 'P1', 'now'), (2, 1, 'P2', 'now')`,
  ).run();
  const add =
    db.prepare(`INSERT INTO recordings (study_id, participant_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, upload_state, created_at)
                          VALUES (1, ?, ?, ?, 1, 'now', 'manifest', ?, 'now')`);
  add.run(1, '/a/short.wav', 'h1', 'refused_locally');
  add.run(1, '/a/short-again.wav', 'h1', 'refused_locally');
  expect(await findRefusedCopy(store, 1, 'h1')).toEqual({ id: 1, batchId: null });
  expect(await findRefusedCopy(store, 2, 'h1')).toBeNull();
  expect(await findRefusedCopy(store, 1, 'h2')).toBeNull();
});
