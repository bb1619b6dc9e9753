/**
 * visits.csv and completeness.csv list a study's expected visits. In a study without a visit schedule
 * none is expected: both files are their header alone, and the export reads each participant's
 * recordings once (for the recordings' own visit columns), not a second time for these files.
 */
import { afterAll, expect, it } from 'vitest';
import type { Queryable, Store } from '../../../main/db/store/types';
import { seedParticipant, seedRecording, seedStudy } from '../rpc/seed';
import { mustExport, openExportStore, readCsv, tempDir } from './helpers';

const tmp = tempDir('vs-visit-reads-');
afterAll(() => tmp.cleanup());

/** A participant's recordings, as the visit ledger reads them. */
const PARTICIPANT_RECORDINGS =
  /FROM recordings r LEFT JOIN recording_visits rv .* WHERE r\.participant_id = \?/s;

/** The store, its export snapshot counting the reads of one participant's recordings. */
const counting = (store: Store) => {
  let reads = 0;
  const count = (sql: string) => {
    if (PARTICIPANT_RECORDINGS.test(sql)) reads++;
  };
  const wrap = (q: Queryable): Queryable => ({
    dialect: q.dialect,
    all: (sql, params) => (count(sql), q.all(sql, params)),
    get: (sql, params) => (count(sql), q.get(sql, params)),
    run: (sql, params) => q.run(sql, params),
    iterate: (sql, params) => (count(sql), q.iterate(sql, params)),
  });
  const counted: Store = Object.assign(Object.create(store) as Store, {
    snapshot: <T>(fn: (q: Queryable) => Promise<T>) => store.snapshot((q) => fn(wrap(q))),
  });
  return { store: counted, reads: () => reads };
};

it('reads each participant once in a study without a visit schedule, and writes both files as their header', async () => {
  const store = await openExportStore(tmp.dir);
  const study = await seedStudy(store, 'Voice');
  for (const code of ['P-001', 'P-002', 'P-003']) {
    const p = await seedParticipant(store, study, code);
    for (const day of [1, 8])
      await seedRecording(store, study, p, { recordedAt: `2026-03-0${day % 10}T10:00:00Z` });
  }
  const c = counting(store);
  await mustExport(c.store, { studyId: study }, { outDir: tmp.dir, folderName: 'out' });
  expect(c.reads()).toBe(3);
  for (const file of ['visits.csv', 'completeness.csv'])
    expect(readCsv(`${tmp.dir}/out/${file}`).rows, file).toEqual([]);
  await store.close();
});
