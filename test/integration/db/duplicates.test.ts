import { expect, it } from 'vitest';
import { findRefusedCopy, findSameContent } from '../../../main/db/repos/duplicates.repo';
import type { Store } from '../../../main/db/store/types';
import { storePerTest, testEngine } from '../../support/test-engine';

const stores = storePerTest();

/** Study 1 with participants 1 and 2, and recordings of theirs: [participant, path, audio hash, state]. */
const withRecordings = async (rows: [number, string, string, string][]): Promise<Store> => {
  const store = await stores.open();
  await store.run(`INSERT INTO studies (id, name, created_at) VALUES (1, 'S', 'now')`);
  await store.run(
    `INSERT INTO participants (id, study_id, code, created_at) VALUES (1, 1, 'P1', 'now'), (2, 1, 'P2', 'now')`,
  );
  for (const row of rows)
    await store.run(
      `INSERT INTO recordings (study_id, participant_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, upload_state, created_at)
       VALUES (1, ?, ?, ?, 1, 'now', 'manifest', ?, 'now')`,
      row,
    );
  return store;
};

const copies: [number, string, string, string][] = [
  [1, '/a/week1.wav', 'h1', 'uploaded'],
  [1, '/b/week1-copy.wav', 'h1', 'cancelled'],
  [2, '/a/other.wav', 'h1', 'uploaded'],
  [1, '/a/week2.wav', 'h2', 'queued'],
];

it('finds earlier recordings of the same audio for the same participant only', async () => {
  const store = await withRecordings(copies);
  expect(await findSameContent(store, 1, 'h1')).toEqual([
    { id: 1, sourcePath: '/a/week1.wav', uploadState: 'uploaded', batchId: null, inUnstartedBatch: false },
  ]);
  expect(await findSameContent(store, 1, 'h3')).toEqual([]);
});

// SQLite's query plan; PostgreSQL plans a table this small without the index.
it.skipIf(testEngine() !== 'sqlite')('looks them up through the index of audio hashes', async () => {
  const store = await withRecordings(copies);
  const plan = (
    await store.all<{ detail: string }>(
      `EXPLAIN QUERY PLAN SELECT id FROM recordings WHERE participant_id = 1 AND content_sha256 = 'h1'`,
    )
  )
    .map((r) => r.detail)
    .join();
  expect(plan).toMatch(/recordings_by_hash/);
});

it('finds the earliest copy refused locally, so a re-import adds no second refused row', async () => {
  const store = await withRecordings([
    [1, '/a/short.wav', 'h1', 'refused_locally'],
    [1, '/a/short-again.wav', 'h1', 'refused_locally'],
  ]);
  expect(await findRefusedCopy(store, 1, 'h1')).toEqual({ id: 1, batchId: null });
  expect(await findRefusedCopy(store, 2, 'h1')).toBeNull();
  expect(await findRefusedCopy(store, 1, 'h2')).toBeNull();
});
