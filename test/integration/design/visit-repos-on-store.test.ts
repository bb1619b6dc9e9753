/**
 * The study design's, participant status's and visit facts' repositories on the study store: the
 * schedule replaced inside the caller's transaction (and rolled back with it), a status change's
 * history row named by the id its insert returns, and the visit ledger read inside a transaction
 * seeing that transaction's own writes (a visit override and its audit entry are one transaction).
 */
import { describe, expect, it } from 'vitest';
import {
  participantStatus,
  restoreParticipantStatus,
  statusHistory,
  writeParticipantStatus,
} from '../../../main/db/repos/participant-status.repo';
import { designOf, replaceSchedule, setVisitOverride } from '../../../main/db/repos/study-design.repo';
import { buildVisitLedger } from '../../../main/design/visit-ledger';
import { storePerTest } from '../../support/test-engine';
import { seedParticipant, seedRecording, seedStudy } from '../rpc/seed';

const NOW = Date.UTC(2026, 5, 1);
const WEEKS = [
  { name: 'Baseline', targetDay: 0, windowBefore: 0, windowAfter: 2 },
  { name: 'Week 1', targetDay: 7, windowBefore: 2, windowAfter: 2 },
];

const stores = storePerTest();

const setUp = async () => {
  const store = await stores.open();
  const s = await seedStudy(store, 'Voice');
  const p = await seedParticipant(store, s, 'P-001');
  return { store, s, p };
};

describe('the visit repositories on the store', () => {
  it('replace the schedule in the caller’s transaction: a kept name keeps its id, a rolled-back change leaves the schedule as it was', async () => {
    const { store, s } = await setUp();
    await store.transaction((tx) => replaceSchedule(tx, s, WEEKS));
    const first = (await designOf(store, s))!.visits;
    expect(first.map((v) => [v.position, v.name])).toEqual([
      [1, 'Baseline'],
      [2, 'Week 1'],
    ]);
    await store.transaction((tx) =>
      replaceSchedule(tx, s, [{ name: 'Week 2', targetDay: 14, windowBefore: 2, windowAfter: 2 }, ...WEEKS]),
    );
    const second = (await designOf(store, s))!.visits;
    expect(second.map((v) => v.name)).toEqual(['Baseline', 'Week 1', 'Week 2']);
    expect(second.slice(0, 2).map((v) => v.id)).toEqual(first.map((v) => v.id));

    await expect(
      store.transaction(async (tx) => {
        await replaceSchedule(tx, s, [{ name: 'Only', targetDay: 0, windowBefore: 0, windowAfter: 0 }]);
        throw new Error('the audit entry could not be written');
      }),
    ).rejects.toThrow(/audit entry/);
    expect((await designOf(store, s))!.visits).toEqual(second);
  });

  it('name a status change’s history row by the id its insert returns, and the undo removes that row', async () => {
    const { store, p } = await setUp();
    const first = await store.transaction((tx) =>
      writeParticipantStatus(tx, p, { status: 'active', on: '2026-03-01', reason: null }, 'a'),
    );
    const second = await store.transaction((tx) =>
      writeParticipantStatus(tx, p, { status: 'withdrawn', on: '2026-04-01', reason: 'moved away' }, 'b'),
    );
    expect(second).toBeGreaterThan(first);
    expect(await participantStatus(store, p)).toMatchObject({
      status: 'withdrawn',
      statusOn: '2026-04-01',
      statusReason: 'moved away',
    });
    await store.transaction((tx) =>
      restoreParticipantStatus(tx, p, { status: 'active', on: '2026-03-01', reason: null }, second),
    );
    expect((await statusHistory(store, p)).map((h) => h.status)).toEqual(['active']);
    expect(await participantStatus(store, p)).toMatchObject({ status: 'active', statusReason: null });
  });

  it('read the ledger inside a transaction with that transaction’s own override, and without it once rolled back', async () => {
    const { store, s, p } = await setUp();
    await store.transaction((tx) => replaceSchedule(tx, s, WEEKS));
    const [, week1] = (await designOf(store, s))!.visits;
    await seedRecording(store, s, p, { recordedAt: '2026-03-02T10:00:00Z', session: 'Baseline' });
    const r = await seedRecording(store, s, p, { recordedAt: '2026-03-03T10:00:00Z' });
    const before = (await buildVisitLedger(store, s, NOW))!.byRecording.get(r)!;
    expect(before.assignment.source).not.toBe('researcher');

    await expect(
      store.transaction(async (tx) => {
        await setVisitOverride(tx, r, week1!.id, 'now');
        const inside = (await buildVisitLedger(tx, s, NOW))!.byRecording.get(r)!;
        expect(inside.assignment).toMatchObject({ visitId: week1!.id, source: 'researcher' });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow(/rolled back/);
    expect((await buildVisitLedger(store, s, NOW))!.byRecording.get(r)!.assignment).toEqual(
      before.assignment,
    );
  });
});
