/**
 * studies.list / studies.get as the studies table and the overview show them: each study's size,
 * what is fully analysed, what needs the researcher, who is overdue against the study's own schedule,
 * and whether its results are simulated; studies.create and studies.update with their refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestHost, type TestHost } from './test-host';
import { NOW, daysAgo, seedParticipant, seedRecording, seedStudy, storeValues } from './seed';

let t: TestHost;
let a: number;
let b: number;

beforeAll(async () => {
  t = await openTestHost({ now: NOW });
  a = await seedStudy(t.store, 'Alpha', 7);
  b = await seedStudy(t.store, 'Beta', 30);
  const p1 = await seedParticipant(t.store, a, 'A-1');
  const p2 = await seedParticipant(t.store, a, 'A-2');
  await seedParticipant(t.store, a, 'A-3'); // never recorded
  const r1 = await seedRecording(t.store, a, p1, {
    recordedAt: daysAgo(3),
    analyses: { wellbeing: 'completed' },
  });
  await storeValues(t.store, r1, 'wellbeing', { wb_stress: 'low' });
  await seedRecording(t.store, a, p2, { recordedAt: daysAgo(20), uploadState: 'rejected', analyses: {} });
  await seedRecording(t.store, a, p2, { recordedAt: daysAgo(10), uploadState: 'cancelled', analyses: {} });
  const q = await seedParticipant(t.store, b, 'B-1');
  await seedRecording(t.store, b, q, { recordedAt: daysAgo(20), analyses: { parkinsons: 'processing' } });
});
afterAll(() => t.close());

describe('studies', () => {
  it('counts participants, recordings (cancelled ones do not count), fully analysed and needing the researcher', async () => {
    const list = await t.must('studies.list', {});
    expect(list.map((s) => s.name)).toEqual(['Alpha', 'Beta']);
    expect(list[0]).toMatchObject({
      participants: 3,
      recordings: 2,
      completedRecordings: 1,
      needsAttention: 1,
      lastRecordingAt: daysAgo(3),
      sessionIntervalDays: 7,
    });
    expect(list[1]).toMatchObject({
      participants: 1,
      recordings: 1,
      completedRecordings: 0,
      needsAttention: 0,
    });
  });

  it("counts overdue participants against each study's own schedule: active ones, while the study runs, who missed a visit", async () => {
    // Alpha's A-2 has only a file the service refused: no usable recording yet, so not overdue; Beta's B-1 is still processing.
    expect((await t.must('studies.get', { studyId: a })).overdueParticipants).toBe(0);
    expect((await t.must('studies.get', { studyId: b })).overdueParticipants).toBe(0);
    const g = await seedStudy(t.store, 'Gamma', 7);
    const g1 = await seedParticipant(t.store, g, 'G-1');
    const g2 = await seedParticipant(t.store, g, 'G-2');
    const usable = async (p: number, days: number) => {
      const r = await seedRecording(t.store, g, p, {
        recordedAt: daysAgo(days),
        analyses: { wellbeing: 'completed' },
      });
      await storeValues(t.store, r, 'wellbeing', { wb_stress: 'low' });
    };
    await usable(g1, 20);
    await seedRecording(t.store, g, g1, { recordedAt: daysAgo(2), uploadState: 'rejected', analyses: {} }); // not usable
    await usable(g2, 3);
    const overdue = async () => (await t.must('studies.get', { studyId: g })).overdueParticipants;
    expect(await overdue()).toBe(0); // no schedule: nobody can miss a visit
    await t.must('visits.setSchedule', {
      studyId: g,
      visits: [
        { name: 'Baseline', targetDay: 0, windowBefore: 0, windowAfter: 0 },
        { name: 'Week 1', targetDay: 7, windowBefore: 0, windowAfter: 0 },
      ],
    });
    expect(await overdue()).toBe(1); // G-1 missed Week 1 (13 days ago); G-2's Week 1 is still ahead
    await t.must('visits.setStatus', {
      participantId: g1,
      status: 'withdrawn',
      on: '2026-05-20',
      reason: 'moved',
    });
    expect(await overdue()).toBe(0);
    await t.must('visits.setStatus', { participantId: g1, status: 'active', on: '2026-05-21' });
    expect(await overdue()).toBe(1);
    await t.must('visits.setPeriod', { studyId: g, startDate: null, endDate: '2026-05-01', timeZone: 'UTC' });
    expect(await overdue()).toBe(0); // the study has ended
    await t.must('visits.setPeriod', { studyId: g, startDate: null, endDate: null, timeZone: 'UTC' });
    expect(await overdue()).toBe(1);
    await t.must('visits.setSchedule', { studyId: g, visits: [] });
    expect(await overdue()).toBe(0);
  });

  it('says a study on the built-in sandbox is simulated, and one on a real service is not', async () => {
    const profile = await t.must('profiles.useSandbox', { apiVersion: 'v1.3' });
    const sim = await t.must('studies.create', {
      name: 'Training',
      profileId: profile.id,
      sessionIntervalDays: 3,
    });
    expect(sim).toMatchObject({
      simulated: true,
      sessionIntervalDays: 3,
      participants: 0,
      recordings: 0,
      lastRecordingAt: null,
    });
    expect((await t.must('studies.get', { studyId: a })).simulated).toBe(false);
  });

  it('refuses a name already taken, and an unknown study', async () => {
    expect(await t.call('studies.update', { studyId: b, name: 'Alpha' })).toMatchObject({
      ok: false,
      error: { code: 'CONFLICT' },
    });
    expect(await t.call('studies.get', { studyId: 999 })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
    const created = await t.call('studies.create', { name: 'Alpha', profileId: 1 });
    expect(created).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    if (!created.ok) expect(created.error.message).toContain('already exists');
  });
});
