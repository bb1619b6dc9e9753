/**
 * A running batch with nothing left to send becomes finished (batches.repo.ts), but a login that sees
 * only some sites (a coordinator on a team database) finishes only a batch it sees whole: as many
 * recordings as its import made. On SQLite and (ENGINE_SUITES) on PGlite.
 */
import { beforeEach, expect, it } from 'vitest';
import { finishDrainedBatches } from '../../../main/db/repos/batches.repo';
import { appendEvent } from '../../../main/db/repos/event-log.repo';
import type { Store } from '../../../main/db/store/types';
import { seedRunningBatch } from '../../support/running-batch';
import { storePerTest } from '../../support/test-engine';

const AT = '2026-03-02T10:00:00.000Z';
const stores = storePerTest();
let store: Store;

const addUploaded = (i: number) =>
  store.run(
    `INSERT INTO recordings (study_id, participant_id, batch_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, upload_state, created_at)
     VALUES (1, 1, 1, ?, ?, 1000, '2026-03-01T09:00:00Z', 'manifest', 'uploaded', ?)`,
    [`/data/r${i}.wav`, `sha-${i}`, AT],
  );
const state = async () =>
  (await store.get<{ state: string }>(`SELECT state FROM batches WHERE id = 1`))!.state;

beforeEach(async () => {
  store = await stores.open();
  await seedRunningBatch(store, AT);
  // The import made two recordings; this login sees one (the other is at a site it cannot see).
  await appendEvent(store, AT, 'batch_created', { studyId: 1 }, { batch_id: 1, recordings: 2, by_state: {} });
  await addUploaded(1);
});

it('is not finished by a login that sees only part of it', async () => {
  expect(await finishDrainedBatches(store, 1, AT, true)).toEqual([]);
  expect(await state()).toBe('running');
});

it('is finished by a login that sees it whole, and by one that sees every site', async () => {
  await addUploaded(2);
  expect((await finishDrainedBatches(store, 1, AT, true)).map(Number)).toEqual([1]);
  expect(await state()).toBe('finished');
});

it('is finished by a login that sees every site without counting', async () => {
  expect((await finishDrainedBatches(store, 1, AT)).map(Number)).toEqual([1]);
});
