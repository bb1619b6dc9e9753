/**
 * The study's overdue participants (the participant list's filter and the study's count): none in a
 * study without a visit schedule, found from its design alone, without building the whole study's
 * visit ledger (at 100,000 recordings that took seconds for every study list); with a schedule, the
 * participants whose visit window closed without a recording.
 */
import { describe, expect, it } from 'vitest';
import { replaceSchedule } from '../../../main/db/repos/study-design.repo';
import type { Queryable } from '../../../main/db/store/types';
import { overdueParticipantIds } from '../../../main/design/recency';
import { storePerTest } from '../../support/test-engine';
import { seedParticipant, seedRecording, seedStudy } from '../rpc/seed';

const NOW = Date.UTC(2026, 5, 1);

/** The store, counting the statements read through it. */
const counted = (q: Queryable) => {
  let reads = 0;
  const handle: Queryable = {
    dialect: q.dialect,
    all: (sql, params) => (reads++, q.all(sql, params)),
    get: (sql, params) => (reads++, q.get(sql, params)),
    run: (sql, params) => q.run(sql, params),
    iterate: (sql, params) => (reads++, q.iterate(sql, params)),
  };
  return { handle, reads: () => reads };
};

const stores = storePerTest();

const setUp = async () => {
  const store = await stores.open();
  const s = await seedStudy(store, 'Voice');
  const p = await seedParticipant(store, s, 'P-001');
  // A baseline in March and nothing since: overdue for Week 1 by June, if there is a schedule.
  await seedRecording(store, s, p, { recordedAt: '2026-03-02T10:00:00Z', session: 'Baseline' });
  return { store, s, p };
};

describe('overdue participants', () => {
  it('none in a study without a schedule, read from its design alone', async () => {
    const { store, s } = await setUp();
    const q = counted(store);
    expect(await overdueParticipantIds(q.handle, s, NOW)).toEqual([]);
    expect(q.reads()).toBeLessThanOrEqual(2);
  });

  it('with a schedule, the participant whose visit window closed without a recording', async () => {
    const { store, s, p } = await setUp();
    await store.transaction((tx) =>
      replaceSchedule(tx, s, [
        { name: 'Baseline', targetDay: 0, windowBefore: 0, windowAfter: 2 },
        { name: 'Week 1', targetDay: 7, windowBefore: 2, windowAfter: 2 },
      ]),
    );
    expect(await overdueParticipantIds(store, s, NOW)).toEqual([p]);
  });
});
