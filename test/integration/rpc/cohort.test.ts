/**
 * The cohort view: one measure across a study's participants, one series per participant and
 * API version (never joined), with days since each participant's first session and the session number;
 * participants' attributes set one by one or imported from a CSV (participant_code,attr…); the
 * participant page's chart choice remembered per study.
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

const seedCohort = async () => {
  const s = await seedStudy(t.store, 'Cohort');
  const a = await seedParticipant(t.store, s, 'P-A');
  const b = await seedParticipant(t.store, s, 'P-B');
  for (const [i, v] of [10, 12, 14].entries()) {
    const r = await seedRecording(t.store, s, a, { recordedAt: daysAgo(30 - i * 7), apiVersion: 'v1.3' });
    await storeValues(t.store, r, 'parkinsons', { pd_hnr: v }, 'v1.3');
  }
  const r1 = await seedRecording(t.store, s, b, { recordedAt: daysAgo(20), apiVersion: 'v1.2' });
  await storeValues(t.store, r1, 'parkinsons', { pd_hnr: 9 }, 'v1.2');
  const r2 = await seedRecording(t.store, s, b, { recordedAt: daysAgo(10), apiVersion: 'v1.3' });
  await storeValues(t.store, r2, 'parkinsons', { pd_hnr: 11 }, 'v1.3');
  return { s, a, b };
};

describe('cohort.measure', () => {
  it('gives every participant their values of one measure, a series per API version, on days since their first session', async () => {
    const { s, a, b } = await seedCohort();
    const c = await t.must('cohort.measure', { studyId: s, measureKey: 'pd_hnr' });
    expect(c.versions).toEqual(['v1.2', 'v1.3']);
    expect(c.participants.map((p) => p.code)).toEqual(['P-A', 'P-B']);
    const pa = c.participants.find((p) => p.participantId === a)!;
    expect(pa.series).toHaveLength(1);
    expect(pa.series[0]!.points.map((p) => [p.days, p.visit, p.value])).toEqual([
      [0, 1, 10],
      [7, 2, 12],
      [14, 3, 14],
    ]);
    const pb = c.participants.find((p) => p.participantId === b)!;
    // v1.2 and v1.3 are two series, never one line; days count from the participant's first session.
    expect(pb.series.map((x) => [x.apiVersion, x.points.map((p) => [p.days, p.value])])).toEqual([
      ['v1.2', [[0, 9]]],
      ['v1.3', [[10, 11]]],
    ]);
  });

  it('with a visit schedule, places each value at its visit and on days since the baseline; excluded recordings are left out', async () => {
    const s = await seedStudy(t.store, 'Scheduled');
    const a = await seedParticipant(t.store, s, 'P-A');
    await t.must('visits.setSchedule', {
      studyId: s,
      visits: [
        { name: 'Baseline', targetDay: 0, windowBefore: 0, windowAfter: 2 },
        { name: 'Week 1', targetDay: 7, windowBefore: 2, windowAfter: 2 },
        { name: 'Week 2', targetDay: 14, windowBefore: 2, windowAfter: 2 },
      ],
    });
    // Days 0, 4 (outside every window), 7 and 14 from the first recording; the one on day 14 excluded.
    const ids: number[] = [];
    for (const [i, d] of [0, 4, 7, 14].entries()) {
      const r = await seedRecording(t.store, s, a, { recordedAt: daysAgo(30 - d), apiVersion: 'v1.3' });
      await storeValues(t.store, r, 'parkinsons', { pd_hnr: 10 + i }, 'v1.3');
      ids.push(r);
    }
    await t.must('curation.excludeRecording', { recordingId: ids[3]!, reason: 'test file' });
    const c = await t.must('cohort.measure', { studyId: s, measureKey: 'pd_hnr' });
    expect(
      c.participants[0]!.series[0]!.points.map((p) => [p.recordingId, p.days, p.visit, p.value]),
    ).toEqual([
      [ids[0], 0, 1, 10],
      [ids[1], 4, null, 11],
      [ids[2], 7, 2, 12],
    ]);
  });

  it('leaves out values dated after a participant’s withdrawal unless they are included, then marks them', async () => {
    const { s, a, b } = await seedCohort();
    // P-A recorded 30, 23 and 16 days ago; withdrawn 20 days ago, so the last recording is after it.
    await t.must('visits.setStatus', {
      participantId: a,
      status: 'withdrawn',
      on: daysAgo(20).slice(0, 10),
      reason: 'moved away',
    });
    const c = await t.must('cohort.measure', { studyId: s, measureKey: 'pd_hnr' });
    expect(c.afterWithdrawal).toEqual({ count: 1, included: false });
    const pa = c.participants.find((p) => p.participantId === a)!;
    expect(pa.series[0]!.points.map((p) => p.value)).toEqual([10, 12]);
    expect(c.participants.find((p) => p.participantId === b)!.series).toHaveLength(2);
    const all = await t.must('cohort.measure', {
      studyId: s,
      measureKey: 'pd_hnr',
      includeAfterWithdrawal: true,
    });
    expect(all.afterWithdrawal).toEqual({ count: 1, included: true });
    expect(
      all.participants
        .find((p) => p.participantId === a)!
        .series[0]!.points.map((p) => [p.value, p.afterWithdrawal]),
    ).toEqual([
      [10, false],
      [12, false],
      [14, true],
    ]);
  });

  it('answers NOT_FOUND for a study that does not exist', async () => {
    expect(await t.call('cohort.measure', { studyId: 999, measureKey: 'pd_hnr' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
  });
});

describe('participant attributes', () => {
  it('sets and removes one participant’s attributes and carries them into the cohort', async () => {
    const { s, a } = await seedCohort();
    expect(
      await t.must('cohort.setAttributes', {
        participantId: a,
        changes: [
          { key: 'arm', value: 'placebo' },
          { key: 'site', value: 'Berlin' },
        ],
      }),
    ).toEqual({ attributes: { arm: 'placebo', site: 'Berlin' } });
    expect(
      await t.must('cohort.setAttributes', { participantId: a, changes: [{ key: 'site', value: null }] }),
    ).toEqual({ attributes: { arm: 'placebo' } });
    const c = await t.must('cohort.measure', { studyId: s, measureKey: 'pd_hnr' });
    expect(c.participants.find((p) => p.participantId === a)!.attributes).toEqual({ arm: 'placebo' });
    const all = await t.must('cohort.attributes', { studyId: s });
    expect(all.keys).toEqual([{ key: 'arm', values: ['placebo'] }]);
    expect(all.participants.map((p) => [p.code, p.attributes])).toEqual([
      ['P-A', { arm: 'placebo' }],
      ['P-B', {}],
    ]);
  });

  it('imports a CSV of participant_code and attribute columns, naming codes that are not in the study', async () => {
    const { s } = await seedCohort();
    const r = await t.must('cohort.setAttributesFromCsv', {
      studyId: s,
      csv: 'participant_code,arm,site\nP-A,placebo,Berlin\nP-B,active,\nP-Z,active,Paris\n,x,y\n',
    });
    expect(r).toEqual({
      applied: 2,
      keys: ['arm', 'site'],
      unknownCodes: ['P-Z'],
      problems: ['Line 5: no participant code; the row was left out.'],
    });
    const all = await t.must('cohort.attributes', { studyId: s });
    expect(all.keys).toEqual([
      { key: 'arm', values: ['active', 'placebo'] },
      { key: 'site', values: ['Berlin'] },
    ]);
    // Semicolons work too; an empty cell leaves the value as it was.
    await t.must('cohort.setAttributesFromCsv', {
      studyId: s,
      csv: 'participant_code;arm;site\nP-A;;Rome\n',
    });
    expect((await t.must('cohort.attributes', { studyId: s })).participants[0]!.attributes).toEqual({
      arm: 'placebo',
      site: 'Rome',
    });
  });

  it('refuses a CSV without the participant_code column, in words', async () => {
    const { s } = await seedCohort();
    expect(
      await t.call('cohort.setAttributesFromCsv', { studyId: s, csv: 'code,arm\nP-A,x\n' }),
    ).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION', message: expect.stringContaining('participant_code') },
    });
  });
});

describe('cohort.chartChoice', () => {
  it('remembers the participant page’s measures and axis per study', async () => {
    const { s } = await seedCohort();
    const other = await seedStudy(t.store, 'Other');
    expect(await t.must('cohort.chartChoice', { studyId: s })).toEqual({ measures: null, axis: 'date' });
    await t.must('cohort.saveChartChoice', {
      studyId: s,
      choice: { measures: ['pd_hnr', 'wb_stress'], axis: 'days' },
    });
    expect(await t.must('cohort.chartChoice', { studyId: s })).toEqual({
      measures: ['pd_hnr', 'wb_stress'],
      axis: 'days',
    });
    expect(await t.must('cohort.chartChoice', { studyId: other })).toEqual({ measures: null, axis: 'date' });
  });
});
