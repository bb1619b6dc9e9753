/**
 * Where a participant's sessions sit on each chart axis, and which values carry a reliable-change mark
 * (renderer/src/components/timeline-data.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  axisPlacement,
  chartSource,
  reliableMarks,
  xSplits,
} from '../../../renderer/src/components/timeline-data';
import { CHART_MEASURES, defaultChartMeasures } from '../../../shared/timeline-measures';
import type { Timeline } from '../../../shared/contract/timeline.contract';

type Session = Timeline['sessions'][number];
type Series = Timeline['measures'][number]['series'][number];

const session = (
  id: number,
  recordedAt: string,
  visit: { index: number; name: string } | null,
  daysSinceBaseline: number | null,
): Session => ({
  recordingId: id,
  recordedAt,
  session: null,
  apiVersion: 'v1.3',
  simulated: false,
  flags: { converted: false, marginalSpeech: false, isolated: false, warnings: [] },
  visit,
  visitSource: visit ? 'window' : 'none',
  daysSinceBaseline,
  excluded: null,
  afterWithdrawal: false,
});

const schedule: Timeline['design'] = {
  visits: [
    { index: 1, name: 'Baseline', targetDay: 0 },
    { index: 2, name: 'Week 4', targetDay: 28 },
    { index: 3, name: 'Week 12', targetDay: 84 },
  ],
  baseline: { date: '2026-01-05', source: 'researcher' },
};

const sessions = [
  session(1, '2026-01-05T10:00:00Z', { index: 1, name: 'Baseline' }, 0),
  session(2, '2026-01-06T10:00:00Z', { index: 1, name: 'Baseline' }, 1),
  session(3, '2026-01-19T10:00:00Z', null, 14),
  session(4, '2026-02-03T10:00:00Z', { index: 2, name: 'Week 4' }, 29),
  session(5, '2026-06-01T10:00:00Z', null, 147),
];

describe('the visit axis', () => {
  const p = axisPlacement('visit', sessions, schedule);
  it('places each recording at its visit of the study design, several in one visit side by side', () => {
    expect(p.xOf(sessions[0]!.recordedAt)).toBe(1);
    expect(p.xOf(sessions[1]!.recordedAt)).toBeCloseTo(1.12);
    expect(p.xOf(sessions[3]!.recordedAt)).toBe(2);
  });
  it('names the visits on the axis', () => {
    expect(p.visitNames?.get(2)).toBe('Week 4');
  });
  it('shows recordings outside every visit between the visits around them by day, and says so', () => {
    expect(p.xOf(sessions[2]!.recordedAt)).toBeCloseTo(1.5); // day 14 of 0..28
    expect(p.xOf(sessions[4]!.recordedAt)).toBe(3.5); // after the last visit
    expect([...p.outside]).toEqual([3, 5]);
    expect(p.note).toMatch(/2 outside every visit/);
    expect(p.span).toEqual([1, 3.5]);
  });
  it('numbers the sessions in order when the study has no schedule, and says so', () => {
    const q = axisPlacement('visit', sessions, { visits: [], baseline: null });
    expect(sessions.map((s) => q.xOf(s.recordedAt))).toEqual([1, 2, 3, 4, 5]);
    expect(q.visitNames).toBeNull();
    expect(q.note).toMatch(/no visit schedule/);
  });
});

describe('the days-since-baseline axis', () => {
  it('counts calendar days from the design’s baseline date', () => {
    const p = axisPlacement('days', sessions, schedule);
    expect(sessions.map((s) => p.xOf(s.recordedAt))).toEqual([0, 1, 14, 29, 147]);
    expect(p.note).toBeNull();
  });
  it('says when day 0 is the first recording rather than a date the researcher set', () => {
    const p = axisPlacement('days', sessions, {
      ...schedule,
      baseline: { date: '2026-01-05', source: 'first_usable' },
    });
    expect(p.note).toMatch(/since 2026-01-05, the participant’s first recording/);
  });
  it('falls back to days since the first session without a baseline, and says so', () => {
    const none = sessions.map((s) => ({ ...s, daysSinceBaseline: null }));
    const p = axisPlacement('days', none, { visits: [], baseline: null });
    expect(p.xOf(none[2]!.recordedAt)).toBe(14);
    expect(p.note).toMatch(/no baseline date/);
  });
});

describe('the date axis', () => {
  it('is each recording’s time in seconds', () => {
    const p = axisPlacement('date', sessions, schedule);
    expect(p.xOf(sessions[0]!.recordedAt)).toBe(Date.parse('2026-01-05T10:00:00Z') / 1000);
  });
});

const series = (values: number[], change: Partial<NonNullable<Series['change']>> | null): Series => ({
  apiVersion: 'v1.3',
  points: values.map((value, i) => ({
    recordingId: i + 1,
    recordedAt: `2026-01-${String(i + 1).padStart(2, '0')}T10:00:00Z`,
    value,
    flags: [],
  })),
  excluded: [],
  baseline: { n: 3, mean: 10, sd: 1, from: '2026-01-01T10:00:00Z', to: '2026-01-03T10:00:00Z' },
  baselinePresent: 3,
  latest: null,
  change:
    change === null
      ? null
      : {
          verdict: 'not_reliable',
          change: 0,
          sdParticipant: 1,
          sdCohortWithin: null,
          sdUsed: 1,
          sdSource: 'participant',
          changeInSd: 0,
          reliability: 0.8,
          reliabilitySource: 'default',
          rciSd: 2,
          sDiff: 1.5,
          rci: 0,
          trendPerWeek: null,
          ...change,
        },
});

describe('reliable-change marks', () => {
  it('mark every later value whose RCI against the baseline reaches ±1.96, and no baseline value', () => {
    // S_diff 1.5: 10 + 1.96 × 1.5 = 12.94
    const marks = reliableMarks(series([9, 10, 20, 12.9, 13, 7], {}), 3);
    expect(marks.map((m) => [m.recordingId, m.direction])).toEqual([
      [5, 'increase'],
      [6, 'decrease'],
    ]);
    expect(marks[0]!.rci).toBeCloseTo(2);
  });
  it('are never given where the measure has no reliability (a trend, no verdict) or the cohort no SD', () => {
    expect(
      reliableMarks(series([9, 10, 11, 30], { reliability: null, sDiff: null, verdict: 'trend_only' }), 3),
    ).toEqual([]);
    expect(reliableMarks(series([9, 10, 11, 30], { sDiff: null, verdict: 'no_cohort_sd' }), 3)).toEqual([]);
    expect(reliableMarks(series([9, 10, 11, 30], null), 3)).toEqual([]);
  });
});

describe('the x axis ticks of a chart', () => {
  const day = 86_400;
  it('puts date ticks on whole days (UTC), about one per 70 pixels', () => {
    const t0 = Date.UTC(2026, 0, 1) / 1000 + 3600;
    const ticks = xSplits('date', t0, t0 + 200 * day, 700, 70);
    expect(ticks.length).toBeGreaterThanOrEqual(4);
    expect(ticks.length).toBeLessThanOrEqual(11);
    for (const t of ticks) {
      expect(t % day).toBe(0);
      expect(t).toBeGreaterThanOrEqual(t0);
      expect(t).toBeLessThanOrEqual(t0 + 200 * day);
    }
  });
  it('puts visit ticks on whole visits only, and day ticks on round numbers', () => {
    expect(xSplits('visit', 0.5, 3.5, 700, 40)).toEqual([1, 2, 3]);
    expect(xSplits('days', -3, 180, 700, 70)).toEqual([0, 20, 40, 60, 80, 100, 120, 140, 160, 180]);
  });
});

describe('the measures shown before the researcher picks', () => {
  it('are the first two of each service analysis type with values, never a local measure', () => {
    const keys = defaultChartMeasures(CHART_MEASURES);
    const types = new Set(CHART_MEASURES.filter((m) => m.analysis !== 'local').map((m) => m.analysis));
    expect(keys).toHaveLength(types.size * 2);
    expect(keys.some((k) => k.startsWith('lm_'))).toBe(false);
    const few = CHART_MEASURES.filter((m) => m.key === 'pd_hnr' || m.key.startsWith('lm_'));
    expect(defaultChartMeasures(few)).toEqual(['pd_hnr']);
  });
});

describe('which timeline answer the charts are drawn from (charts drawn once)', () => {
  const answer = (k: number | null, placeholder = false) => ({
    data: k === null ? undefined : { baselineSessions: k },
    isPlaceholderData: placeholder,
  });

  it('the measures shown, while every measure has not arrived', () => {
    expect(chartSource(answer(3), answer(null))).toBe('part');
    expect(chartSource(answer(null), answer(null))).toBe('part');
  });

  it('still the measures shown once every measure arrives for the same k: their charts are not drawn again', () => {
    expect(chartSource(answer(3), answer(3))).toBe('part');
  });

  it('still the first answer after "Show all" or another pick (same k), the other measures from the full answer', () => {
    expect(chartSource(answer(3, true), answer(3))).toBe('part');
  });

  it('the full answer once it is for another k than the first (the researcher changed k)', () => {
    expect(chartSource(answer(3, true), answer(5))).toBe('all');
    expect(chartSource(answer(3), answer(5))).toBe('all');
  });

  it('the measures shown once they have arrived for a new k, every measure still on its way', () => {
    expect(chartSource(answer(5), answer(3, true))).toBe('part');
  });

  it('the full answer when the first has none', () => {
    expect(chartSource(answer(null), answer(3))).toBe('all');
  });
});
