/**
 * Honest change statistics through the window's contract: the timeline says "no baseline yet" until
 * the study's k sessions exist, floors the SD with the cohort's pooled within-person SD, and judges the
 * latest change by the reliable change index with the study's reliabilities (reliability.*).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestHost, type TestHost } from './test-host';
import { NOW, daysAgo, seedParticipant, seedRecording, seedStudy, storeValues } from './seed';

let t: TestHost;
beforeEach(async () => {
  t = await openTestHost({ now: NOW });
});
afterEach(async () => {
  await t.close();
});

/** One participant's weekly HNR values (and a Parkinson's score alongside). */
const seedSeries = async (s: number, code: string, hnr: number[]) => {
  const p = await seedParticipant(t.store, s, code);
  for (const [i, v] of hnr.entries()) {
    const r = await seedRecording(t.store, s, p, { recordedAt: daysAgo(100 - i * 7) });
    await storeValues(t.store, r, 'parkinsons', { pd_hnr: v, pd_risk_score: 40 + v }, 'v1.3');
  }
  return p;
};

const hnrOf = async (participantId: number, baselineSessions?: number) =>
  (
    await t.must('timeline.participant', {
      participantId,
      ...(baselineSessions !== undefined ? { baselineSessions } : {}),
    })
  ).measures.find((m) => m.key === 'pd_hnr')!.series[0]!;

describe('change statistics on the timeline', () => {
  it('says "no baseline yet" with 2 sessions when the baseline needs 3, with no figure', async () => {
    const s = await seedStudy(t.store);
    const p = await seedSeries(s, 'P-2', [10, 12]);
    const hnr = await hnrOf(p);
    expect(hnr.baseline).toBeNull();
    expect(hnr.baselinePresent).toBe(2);
    expect(hnr.change).toMatchObject({
      verdict: 'no_baseline_yet',
      change: null,
      changeInSd: null,
      rci: null,
    });
  });

  it("uses the study's k, set through reliability.setBaselineSessions", async () => {
    const s = await seedStudy(t.store);
    const p = await seedSeries(s, 'P-2', [10, 12, 15]);
    await t.must('reliability.setBaselineSessions', { studyId: s, baselineSessions: 2 });
    const tl = await t.must('timeline.participant', { participantId: p });
    expect(tl.baselineSessions).toBe(2);
    const hnr = tl.measures.find((m) => m.key === 'pd_hnr')!.series[0]!;
    expect(hnr.baseline).toMatchObject({ n: 2, mean: 11 });
    expect(hnr.change?.change).toBe(4);
  });

  it('floors a tiny SD with the cohort, and gives a reliable-change verdict by the RCI', async () => {
    const s = await seedStudy(t.store);
    const flat = await seedSeries(s, 'P-flat', [11, 11.1, 11, 16]);
    await seedSeries(s, 'P-a', [10, 12, 14, 13]);
    await seedSeries(s, 'P-b', [19, 20, 21, 20]);
    const hnr = await hnrOf(flat);
    const c = hnr.change!;
    // Pooled within-person SD over the three baselines (sums of squares 0.00667, 8, 2; 6 df).
    const within = Math.sqrt((0.02 / 3 + 8 + 2) / 6);
    expect(c.sdCohortWithin).toBeCloseTo(within, 12);
    expect(c.sdSource).toBe('cohort');
    expect(c.changeInSd).toBeCloseTo((16 - 11.1 / 3 - 22 / 3) / within, 10);
    // RCI with HNR's default reliability 0.40 and the SD of all nine baseline values.
    const all = [11, 11.1, 11, 10, 12, 14, 19, 20, 21];
    const m = all.reduce((a, b) => a + b, 0) / all.length;
    const sd1 = Math.sqrt(all.reduce((a, x) => a + (x - m) ** 2, 0) / (all.length - 1));
    expect(c.reliability).toBe(0.4);
    expect(c.rciSd).toBeCloseTo(sd1, 12);
    expect(c.rci).toBeCloseTo(c.change! / (Math.SQRT2 * sd1 * Math.sqrt(0.6)), 12);
    expect(c.verdict).toBe(Math.abs(c.rci!) >= 1.96 ? 'reliable_increase' : 'not_reliable');
    // The Parkinson's score has no published reliability: a trend, no verdict.
    const score = (await t.must('timeline.participant', { participantId: flat })).measures.find(
      (x) => x.key === 'pd_risk_score',
    )!.series[0]!;
    expect(score.change).toMatchObject({ verdict: 'trend_only', rci: null });
    expect(score.change!.trendPerWeek).not.toBeNull();
  });

  it('follows the cohort as it grows (the cohort reference is recomputed after every change to the data)', async () => {
    const s = await seedStudy(t.store);
    const p = await seedSeries(s, 'P-a', [10, 12, 14, 13]);
    await seedSeries(s, 'P-b', [19, 20, 21, 20]);
    const before = (await hnrOf(p)).change!;
    expect(before.sdCohortWithin).toBeCloseTo(Math.sqrt((8 + 2) / 4), 12);
    await seedSeries(s, 'P-c', [30, 40, 50]);
    const after = (await hnrOf(p)).change!;
    expect(after.sdCohortWithin).toBeCloseTo(Math.sqrt((8 + 2 + 200) / 6), 12);
  });

  it("lets the study set, and reset, a measure's reliability", async () => {
    const s = await seedStudy(t.store);
    const before = await t.must('reliability.get', { studyId: s });
    expect(before.baselineSessions).toBe(3);
    expect(before.measures.find((m) => m.key === 'pd_hnr')).toMatchObject({ r: 0.4, source: 'default' });
    expect(before.measures.find((m) => m.key === 'pd_risk_score')).toMatchObject({ r: null, source: null });
    const set = await t.must('reliability.set', {
      studyId: s,
      measureKey: 'pd_risk_score',
      r: 0.8,
      note: 'our pilot, ICC(2,1)',
    });
    expect(set.measures.find((m) => m.key === 'pd_risk_score')).toMatchObject({
      r: 0.8,
      source: 'study',
      note: 'our pilot, ICC(2,1)',
    });
    const reset = await t.must('reliability.remove', { studyId: s, measureKey: 'pd_risk_score' });
    expect(reset.measures.find((m) => m.key === 'pd_risk_score')).toMatchObject({ r: null });
    expect(await t.call('reliability.set', { studyId: s, measureKey: 'pd_hnr', r: 1 })).toMatchObject({
      ok: false,
    });
    expect(await t.call('reliability.set', { studyId: s, measureKey: 'wb_stress', r: 0.5 })).toMatchObject({
      ok: false,
      error: { code: 'REFUSED' },
    });
  });
});
