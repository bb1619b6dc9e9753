/**
 * timeline.participant: each measure's values by session, one series per API version (never joined),
 * each with its own within-person baseline and the latest session's change from it; sessions carry
 * markers for converted, marginal, isolated and warned audio, and whether their results are simulated;
 * a value the service sent outside the specification is kept as received and carries its flags; each
 * session carries its visit of the study's design and its days since the participant's baseline; an
 * excluded recording is shown, its values apart; local acoustic measures are measures like any other;
 * only the measures asked for are sent (or those of the study's stored chart choice).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dqFlag } from '../../../shared/api/data-quality';
import { replaceFlags } from '../../../main/db/repos/data-quality.repo';
import { saveMeasurement } from '../../../main/db/repos/local-measures.repo';
import { openTestHost, type TestHost } from './test-host';
import { NOW, daysAgo, seedParticipant, seedRecording, seedStudy, storeValues } from './seed';

let t: TestHost;
beforeEach(async () => {
  t = await openTestHost({ now: NOW });
});
afterEach(async () => {
  await t.close();
});

const timeline = (participantId: number, baselineSessions?: number) =>
  t.must('timeline.participant', {
    participantId,
    ...(baselineSessions !== undefined ? { baselineSessions } : {}),
  });

/** Sessions 10 days apart; HNR 10, 12, 14, then 20; stress low, low, high, very high. */
const seedFourSessions = async (apiVersion: 'v1.2' | 'v1.3' = 'v1.3', start = 40, hnr = [10, 12, 14, 20]) => {
  const s = await seedStudy(t.store, `S-${apiVersion}-${start}`);
  const p = await seedParticipant(t.store, s, 'P-1');
  const ids: number[] = [];
  for (const [i, v] of hnr.entries()) {
    const r = await seedRecording(t.store, s, p, { recordedAt: daysAgo(start - i * 10), apiVersion });
    await storeValues(t.store, r, 'parkinsons', { pd_hnr: v }, apiVersion);
    await storeValues(
      t.store,
      r,
      'wellbeing',
      { wb_stress: ['low', 'low', 'high', 'very high'][i % 4]! },
      apiVersion,
    );
    ids.push(r);
  }
  return { s, p, ids };
};

describe('timeline.participant', () => {
  it('gives each measure its points in time order, a baseline of the first three sessions and the change of the latest', async () => {
    const { p, ids } = await seedFourSessions();
    const tl = await timeline(p);
    expect(tl).toMatchObject({ participantId: p, code: 'P-1', baselineSessions: 3, versions: ['v1.3'] });
    const hnr = tl.measures.find((m) => m.key === 'pd_hnr')!;
    expect(hnr.series).toHaveLength(1);
    const [series] = hnr.series;
    expect(series!.points.map((x) => [x.recordingId, x.value])).toEqual([
      [ids[0], 10],
      [ids[1], 12],
      [ids[2], 14],
      [ids[3], 20],
    ]);
    expect(series!.baseline).toEqual({ n: 3, mean: 12, sd: 2, from: daysAgo(40), to: daysAgo(20) });
    expect(series!.latest).toEqual({ value: 20, recordedAt: daysAgo(10) });
    expect(series!.baselinePresent).toBe(3);
    // One participant: no cohort SD floor and no RCI; HNR has a default reliability, so no verdict is for want of a cohort.
    expect(series!.change).toMatchObject({ change: 8, changeInSd: 4, sdSource: 'participant', rci: null });
    expect(series!.change!.verdict).toBe('no_cohort_sd');
    // Measures without any value are not listed.
    expect(tl.measures.map((m) => m.key).sort()).toEqual(['pd_hnr', 'wb_stress']);
  });

  it('takes the baseline over as many first sessions as asked (1–20), and gives no SD change without a spread', async () => {
    const { p } = await seedFourSessions();
    const two = (await timeline(p, 2)).measures.find((m) => m.key === 'pd_hnr')!.series[0]!;
    expect(two.baseline).toMatchObject({ n: 2, mean: 11 });
    expect(two.change?.change).toBe(9);
    const one = (await timeline(p, 1)).measures.find((m) => m.key === 'pd_hnr')!.series[0]!;
    expect(one.baseline).toMatchObject({ n: 1, mean: 10, sd: null });
    expect(one.change).toMatchObject({ change: 10, changeInSd: null, sdUsed: null });
    // Four sessions cannot make a baseline of 20: no baseline yet, and no figure.
    const all = (await timeline(p, 20)).measures.find((m) => m.key === 'pd_hnr')!.series[0]!;
    expect(all.baseline).toBeNull();
    expect(all.baselinePresent).toBe(4);
    expect(all.change).toMatchObject({ verdict: 'no_baseline_yet', change: null, changeInSd: null });
    expect(await t.call('timeline.participant', { participantId: p, baselineSessions: 0 })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION' },
    });
    expect(await t.call('timeline.participant', { participantId: p, baselineSessions: 21 })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION' },
    });
  });

  it('gives categorical insights as levels, with no numeric baseline or change', async () => {
    const { p } = await seedFourSessions();
    const stress = (await timeline(p)).measures.find((m) => m.key === 'wb_stress')!.series[0]!;
    expect(stress.points.map((x) => x.value)).toEqual(['low', 'low', 'high', 'very high']);
    expect(stress).toMatchObject({
      baseline: null,
      change: null,
      latest: { value: 'very high' },
    });
  });

  it('never joins v1.2 and v1.3 results: one series and one baseline per version', async () => {
    const s = await seedStudy(t.store);
    const p = await seedParticipant(t.store, s, 'P-1');
    for (const [i, v] of [
      [0, 10],
      [1, 12],
      [2, 14],
    ] as const)
      await storeValues(
        t.store,
        await seedRecording(t.store, s, p, { recordedAt: daysAgo(90 - i * 10), apiVersion: 'v1.2' }),
        'parkinsons',
        { pd_hnr: v },
        'v1.2',
      );
    for (const [i, v] of [
      [0, 30],
      [1, 30],
      [2, 33],
    ] as const)
      await storeValues(
        t.store,
        await seedRecording(t.store, s, p, { recordedAt: daysAgo(30 - i * 10), apiVersion: 'v1.3' }),
        'parkinsons',
        { pd_hnr: v },
      );
    const tl = await timeline(p);
    expect(tl.versions).toEqual(['v1.2', 'v1.3']);
    const series = tl.measures.find((m) => m.key === 'pd_hnr')!.series;
    expect(series.map((x) => [x.apiVersion, x.points.map((pt) => pt.value), x.baseline?.mean])).toEqual([
      ['v1.2', [10, 12, 14], 12],
      ['v1.3', [30, 30, 33], 31],
    ]);
    expect(tl.sessions.map((x) => x.apiVersion)).toEqual(['v1.2', 'v1.2', 'v1.2', 'v1.3', 'v1.3', 'v1.3']);
  });

  it('marks sessions that were converted, marginal (under 36 s of speech), isolated or warned, and says which are simulated', async () => {
    const s = await seedStudy(t.store);
    const p = await seedParticipant(t.store, s, 'P-1');
    const warn = {
      status: 'accepted_with_warnings' as const,
      findings: [
        {
          code: 'low_rate',
          severity: 'warn' as const,
          message: 'Sample rate under 16 kHz.',
          action: 'Record at 16 kHz or more.',
          fixedByConversion: false,
        },
      ],
    };
    const plain = await seedRecording(t.store, s, p, {
      recordedAt: daysAgo(40),
      simulated: false,
      speechSeconds: 36,
    });
    const converted = await seedRecording(t.store, s, p, { recordedAt: daysAgo(30), converted: true });
    const marginal = await seedRecording(t.store, s, p, {
      recordedAt: daysAgo(20),
      speechSeconds: 33.5,
      isolate: true,
      session: 'week 3',
    });
    const warned = await seedRecording(t.store, s, p, { recordedAt: daysAgo(10), verdict: warn });
    await seedRecording(t.store, s, p, { recordedAt: daysAgo(5), uploadState: 'refused_locally' });
    const tl = await timeline(p);
    expect(
      tl.sessions.map((x) => ({ id: x.recordingId, simulated: x.simulated, session: x.session, ...x.flags })),
    ).toEqual([
      {
        id: plain,
        simulated: false,
        session: null,
        converted: false,
        marginalSpeech: false,
        isolated: false,
        warnings: [],
      },
      {
        id: converted,
        simulated: true,
        session: null,
        converted: true,
        marginalSpeech: false,
        isolated: false,
        warnings: [],
      },
      {
        id: marginal,
        simulated: true,
        session: 'week 3',
        converted: false,
        marginalSpeech: true,
        isolated: true,
        warnings: [],
      },
      {
        id: warned,
        simulated: true,
        session: null,
        converted: false,
        marginalSpeech: false,
        isolated: false,
        warnings: ['Sample rate under 16 kHz.'],
      },
    ]);
  });

  it('leaves out values of recordings that are no longer uploaded, and places each point at its recording’s time', async () => {
    const { p, ids } = await seedFourSessions();
    await t.store.run(`UPDATE recordings SET upload_state = 'cancelled' WHERE id = ?`, [ids[3]!]);
    await t.store.run(`UPDATE recordings SET recorded_at = ? WHERE id = ?`, [daysAgo(45), ids[2]!]);
    const series = (await timeline(p)).measures.find((m) => m.key === 'pd_hnr')!.series[0]!;
    expect(series.points.map((x) => [x.value, x.recordedAt])).toEqual([
      [14, daysAgo(45)],
      [10, daysAgo(40)],
      [12, daysAgo(30)],
    ]);
    expect(series.latest).toEqual({ value: 12, recordedAt: daysAgo(30) });
  });

  it('keeps a value outside the specification as received and gives the point its data-quality flags', async () => {
    const s = await seedStudy(t.store);
    const p = await seedParticipant(t.store, s, 'P-1');
    const ids: number[] = [];
    for (const [i, clarity] of [70, 101, 64].entries()) {
      const r = await seedRecording(t.store, s, p, {
        recordedAt: daysAgo(30 - i * 10),
        analyses: { communication_coach: 'completed' },
      });
      await storeValues(t.store, r, 'communication_coach', { cc_clarity: clarity, cc_rhythm: 50 });
      ids.push(r);
    }
    await replaceFlags(t.store, daysAgo(0), ids[1]!, 'poll', 'communication_coach', [
      dqFlag('score_out_of_range', 'insights.clarity.score', 101, 'a whole number from 0 to 100', [
        'cc_clarity',
      ]),
    ]);
    // A flag of the receipt names no measure: it marks no point.
    await replaceFlags(t.store, daysAgo(0), ids[2]!, 'receipt_check', null, [
      dqFlag(
        'receipt_duration_differs',
        'metadata.audio_duration_seconds',
        61,
        '60 s, as read on the workstation',
      ),
    ]);
    const tl = await timeline(p);
    const clarity = tl.measures.find((m) => m.key === 'cc_clarity')!.series[0]!;
    expect(clarity.points.map((x) => [x.value, x.flags])).toEqual([
      [70, []],
      [101, [{ code: 'score_out_of_range', received: '101', expected: 'a whole number from 0 to 100' }]],
      [64, []],
    ]);
    // The flagged value stays in the series and its baseline: kept as received, never clamped.
    expect(clarity.baseline).toMatchObject({ n: 3, mean: 235 / 3 });
    const rhythm = tl.measures.find((m) => m.key === 'cc_rhythm')!.series[0]!;
    expect(rhythm.points.every((x) => x.flags.length === 0)).toBe(true);
  });

  it('gives an empty timeline for a participant without results, and NOT_FOUND for one that does not exist', async () => {
    const s = await seedStudy(t.store);
    const p = await seedParticipant(t.store, s, 'P-1');
    expect(await timeline(p)).toEqual({
      participantId: p,
      code: 'P-1',
      baselineSessions: 3,
      baselineRule: { sessions: 3, source: 'default', firstFollowUp: null },
      versions: [],
      sessions: [],
      design: { visits: [], baseline: null },
      available: [],
      measures: [],
    });
    expect(await t.call('timeline.participant', { participantId: 999 })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
  });

  it('gives each session its visit of the study design (or none) and its days since the participant’s baseline', async () => {
    const { s, p, ids } = await seedFourSessions('v1.3', 40, [10, 12, 14, 20, 22]);
    await t.must('visits.setSchedule', {
      studyId: s,
      visits: [
        { name: 'Baseline', targetDay: 0, windowBefore: 0, windowAfter: 3 },
        { name: 'Day 20', targetDay: 20, windowBefore: 2, windowAfter: 2 },
        { name: 'Day 40', targetDay: 40, windowBefore: 2, windowAfter: 2 },
      ],
    });
    const tl = await timeline(p);
    expect(tl.design.visits.map((v) => [v.index, v.name, v.targetDay])).toEqual([
      [1, 'Baseline', 0],
      [2, 'Day 20', 20],
      [3, 'Day 40', 40],
    ]);
    expect(tl.design.baseline).toMatchObject({ date: daysAgo(40).slice(0, 10), source: 'first_usable' });
    // Sessions on days 0, 10, 20, 30, 40: days 10 and 30 fall in no visit's window.
    expect(tl.sessions.map((x) => [x.recordingId, x.visit?.name ?? null, x.daysSinceBaseline])).toEqual([
      [ids[0], 'Baseline', 0],
      [ids[1], null, 10],
      [ids[2], 'Day 20', 20],
      [ids[3], null, 30],
      [ids[4], 'Day 40', 40],
    ]);
    expect(tl.sessions[1]!.visitSource).toBe('none');
  });

  it('takes the baseline from the schedule (the visits before its first follow-up) until the study sets its own, for every participant', async () => {
    const { s, p } = await seedFourSessions();
    const other = await seedParticipant(t.store, s, 'P-2');
    await t.must('visits.setSchedule', {
      studyId: s,
      visits: [
        { name: 'Baseline', targetDay: 0, windowBefore: 0, windowAfter: 3 },
        { name: 'Week 1', targetDay: 7, windowBefore: 2, windowAfter: 2 },
        { name: 'Week 2', targetDay: 14, windowBefore: 2, windowAfter: 2 },
      ],
    });
    const tl = await timeline(p);
    expect(tl.baselineSessions).toBe(1);
    expect(tl.baselineRule).toEqual({ sessions: 1, source: 'schedule', firstFollowUp: 'Week 1' });
    expect(tl.measures.find((m) => m.key === 'pd_hnr')!.series[0]!.baseline).toMatchObject({
      n: 1,
      mean: 10,
    });
    // Chosen once for the study, it holds for every participant, and the schedule's comes back when removed.
    const set = await t.must('reliability.setBaselineSessions', { studyId: s, baselineSessions: 2 });
    expect(set).toMatchObject({ baselineSessions: 2, baselineRule: { source: 'study' } });
    expect(set.fallback).toEqual({ sessions: 1, source: 'schedule', firstFollowUp: 'Week 1' });
    expect((await timeline(other)).baselineSessions).toBe(2);
    await t.must('reliability.setBaselineSessions', { studyId: s, baselineSessions: null });
    expect((await timeline(other)).baselineRule.source).toBe('schedule');
  });

  it('keeps the default baseline without a schedule', async () => {
    const { s, p } = await seedFourSessions();
    expect((await timeline(p)).baselineRule).toEqual({ sessions: 3, source: 'default', firstFollowUp: null });
    expect(await t.must('reliability.get', { studyId: s })).toMatchObject({
      baselineSessions: 3,
      baselineRule: { source: 'default' },
    });
  });

  it('shows an excluded recording with its reason, its values apart and counted in no baseline or change', async () => {
    const { p, ids } = await seedFourSessions();
    await t.must('curation.excludeRecording', { recordingId: ids[1]!, reason: 'wrong speaker' });
    const tl = await timeline(p);
    expect(tl.sessions.find((x) => x.recordingId === ids[1])!.excluded).toBe('wrong speaker');
    const hnr = tl.measures.find((m) => m.key === 'pd_hnr')!.series[0]!;
    expect(hnr.points.map((x) => x.value)).toEqual([10, 14, 20]);
    expect(hnr.excluded.map((x) => [x.recordingId, x.value])).toEqual([[ids[1], 12]]);
    expect(hnr.baseline).toMatchObject({ n: 3, mean: 44 / 3 });
    expect(hnr.change!.verdict).toBe('no_session_after_baseline');
  });

  it('leaves a recording dated after the withdrawal out of the baseline and the change, marked, unless included', async () => {
    const { p, ids } = await seedFourSessions();
    await t.must('visits.setStatus', {
      participantId: p,
      status: 'withdrawn',
      on: daysAgo(15).slice(0, 10),
      reason: 'moved away',
    });
    const tl = await timeline(p);
    expect(tl.sessions.find((x) => x.recordingId === ids[3])!.excluded).toMatch(
      /after the participant’s withdrawal/,
    );
    expect(tl.sessions.filter((x) => x.excluded !== null)).toHaveLength(1);
    const hnr = tl.measures.find((m) => m.key === 'pd_hnr')!.series[0]!;
    expect(hnr.points.map((x) => x.value)).toEqual([10, 12, 14]);
    expect(hnr.excluded.map((x) => [x.recordingId, x.value])).toEqual([[ids[3], 20]]);
    expect(hnr.change!.verdict).toBe('no_session_after_baseline');
    const all = await t.must('timeline.participant', { participantId: p, includeAfterWithdrawal: true });
    const included = all.measures.find((m) => m.key === 'pd_hnr')!.series[0]!;
    expect(included.points.map((x) => x.value)).toEqual([10, 12, 14, 20]);
    expect(included.excluded).toEqual([]);
    expect(all.sessions.every((x) => x.excluded === null)).toBe(true);
    expect(all.sessions.map((x) => x.afterWithdrawal)).toEqual([false, false, false, true]);
  });

  it('charts local acoustic measures (lm_ keys, one series whatever the API version) like any other', async () => {
    const { p, ids } = await seedFourSessions();
    const store = t.store;
    for (const [i, id] of ids.entries())
      await saveMeasurement(store, {
        recordingId: id,
        measuredAt: daysAgo(1),
        engineVersion: '0.2.0',
        settings: '{"pitchFloor":75,"pitchCeiling":500}',
        audioPath: `/a/${id}.wav`,
        problem: null,
        quality: null,
        measures: { f0_mean_hz: 120 + i, jitter_local_pct: null },
      });
    const tl = await timeline(p);
    expect(tl.available.map((a) => [a.key, a.analysis])).toEqual([
      ['wb_stress', 'wellbeing'],
      ['pd_hnr', 'parkinsons'],
      ['lm_f0_mean_hz', 'local'],
    ]);
    const f0 = tl.measures.find((m) => m.key === 'lm_f0_mean_hz')!;
    expect(f0.series.map((x) => x.apiVersion)).toEqual(['local']);
    expect(f0.series[0]!.points.map((x) => x.value)).toEqual([120, 121, 122, 123]);
    expect(f0.series[0]!.baseline).toMatchObject({ n: 3, mean: 121 });
    // No published reliability for a local measure here: a trend, no reliable-change verdict.
    expect(f0.series[0]!.change!.verdict).toBe('trend_only');
  });

  it('sends the values of the measures asked for only, and lists every measure with a value', async () => {
    const { p } = await seedFourSessions();
    const tl = await t.must('timeline.participant', {
      participantId: p,
      measures: ['pd_hnr', 'no_such_key'],
    });
    expect(tl.measures.map((m) => m.key)).toEqual(['pd_hnr']);
    expect(tl.available.map((a) => a.key)).toEqual(['wb_stress', 'pd_hnr']);
    expect(tl.sessions).toHaveLength(4);
    const none = await t.must('timeline.participant', { participantId: p, measures: [] });
    expect(none.measures).toEqual([]);
    expect(none.available).toHaveLength(2);
  });

  it('applies the study’s stored chart choice when asked for it, and the first two of each type when none is stored', async () => {
    const { s, p } = await seedFourSessions();
    const first = await t.must('timeline.participant', { participantId: p, measures: 'study-choice' });
    expect(first.measures.map((m) => m.key)).toEqual(['wb_stress', 'pd_hnr']);
    await t.must('cohort.saveChartChoice', { studyId: s, choice: { measures: ['pd_hnr'], axis: 'visit' } });
    const chosen = await t.must('timeline.participant', { participantId: p, measures: 'study-choice' });
    expect(chosen.measures.map((m) => m.key)).toEqual(['pd_hnr']);
    expect(chosen.available.map((a) => a.key)).toEqual(['wb_stress', 'pd_hnr']);
  });
});
