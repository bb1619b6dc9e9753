/**
 * The change statistics' rules (shared/change.ts, docs/change.md), each as the researcher would state it,
 * with the figures worked by hand.
 */
import { describe, expect, it } from 'vitest';
import { baselineOf, type BaselinePoint } from '../../../shared/baseline';
import {
  changeStats,
  cohortReference,
  isUsableSd,
  NO_COHORT,
  Trend,
  type ChangeInput,
} from '../../../shared/change';
import { defaultReliability, reliabilityOf } from '../../../shared/reliability';

const day = (d: number) => new Date(Date.UTC(2026, 0, 1 + d)).toISOString();
const series = (...xs: number[]): BaselinePoint[] =>
  xs.map((value, i) => ({ recordedAt: day(7 * i), value }));
const input = (over: Partial<ChangeInput> & Pick<ChangeInput, 'baseline' | 'latest' | 'n'>): ChangeInput => ({
  k: 3,
  cohort: NO_COHORT,
  reliability: null,
  trendPerWeek: null,
  ...over,
});

describe('a baseline needs its k sessions present', () => {
  it('gives no baseline with 2 sessions when k = 3, never a baseline of the first 2', () => {
    expect(baselineOf(series(10, 12), 3)).toBeNull();
  });

  it('gives the mean and sample SD of exactly the first 3 when 3 or more exist', () => {
    expect(baselineOf(series(10, 12, 14), 3)).toMatchObject({ n: 3, mean: 12, sd: 2 });
    expect(baselineOf(series(10, 12, 14, 40, 50), 3)).toMatchObject({ n: 3, mean: 12, sd: 2 });
  });

  it('says "no baseline yet", with no change and no figure, while fewer than k sessions exist', () => {
    const c = changeStats(input({ baseline: baselineOf(series(10, 12), 3), latest: 12, n: 2 }));
    expect(c.verdict).toBe('no_baseline_yet');
    expect([c.change, c.changeInSd, c.rci, c.sdUsed]).toEqual([null, null, null, null]);
  });

  it('gives no change until a session after the baseline exists', () => {
    const c = changeStats(input({ baseline: baselineOf(series(10, 12, 14), 3), latest: 14, n: 3 }));
    expect(c.verdict).toBe('no_session_after_baseline');
    expect(c.change).toBeNull();
  });

  it('follows the study’s k: with k = 2, two sessions are a baseline', () => {
    const b = baselineOf(series(10, 12), 2);
    expect(b).toMatchObject({ n: 2, mean: 11 });
    expect(changeStats(input({ k: 2, baseline: b, latest: 15, n: 3 })).change).toBe(4);
  });
});

describe('change in SD uses the larger of the participant’s SD and the cohort’s pooled within-person SD', () => {
  // Three participants' baselines (k = 3). Within-person sums of squares: 8, 2, 0; df 2 each.
  // Pooled within-person SD = √(10 / 6). All nine values: mean 129 / 9; total sum of squares 156 → SD √(156 / 8).
  const cohort = cohortReference([
    [10, 12, 14],
    [19, 20, 21],
    [11, 11, 11],
  ]);

  it('computes the cohort reference by hand', () => {
    expect(cohort.participants).toBe(3);
    expect(cohort.pooledWithinSd).toBeCloseTo(Math.sqrt(10 / 6), 15);
    expect(cohort.mean).toBeCloseTo(129 / 9, 13);
    expect(cohort.baselineSd).toBeCloseTo(Math.sqrt(156 / 8), 13);
  });

  it('applies the floor when the participant’s own SD is tiny (no more −15 SD)', () => {
    // Baseline 11.0, 11.1, 11.0: SD 0.0577…; the cohort floor √(10/6) = 1.29 is larger.
    const b = baselineOf(series(11, 11.1, 11), 3)!;
    const c = changeStats(input({ baseline: b, latest: 10, n: 4, cohort }));
    expect(c.sdSource).toBe('cohort');
    expect(c.sdUsed).toBe(cohort.pooledWithinSd);
    expect(c.changeInSd).toBeCloseTo((10 - b.mean) / Math.sqrt(10 / 6), 12);
    expect(Math.abs(c.changeInSd!)).toBeLessThan(1);
    expect(Math.abs((10 - b.mean) / b.sd!)).toBeGreaterThan(15); // what the unfloored figure would have said
  });

  it('keeps the participant’s own SD when it is the larger', () => {
    const b = baselineOf(series(10, 14, 18), 3)!; // SD 4
    const c = changeStats(input({ baseline: b, latest: 22, n: 4, cohort }));
    expect(c.sdSource).toBe('participant');
    expect(c.changeInSd).toBe(2);
  });

  it('gives no SD-scaled change when neither SD is usable (flat baseline, no cohort)', () => {
    const b = baselineOf(series(5, 5, 5), 3)!;
    const c = changeStats(input({ baseline: b, latest: 9, n: 4 }));
    expect(c.change).toBe(4);
    expect(c.sdUsed).toBeNull();
    expect(c.changeInSd).toBeNull();
  });

  it('treats an SD that is zero up to rounding as degenerate', () => {
    expect(isUsableSd(0, 5)).toBe(false);
    expect(isUsableSd(1e-12, 1e3)).toBe(false);
    expect(isUsableSd(null, 5)).toBe(false);
    expect(isUsableSd(0.01, 5)).toBe(true);
  });

  it('needs at least two participants with a complete baseline for a cohort figure', () => {
    expect(cohortReference([[10, 12, 14]])).toMatchObject({
      participants: 1,
      pooledWithinSd: null,
      baselineSd: null,
    });
  });
});

describe('the reliable change index (Jacobson & Truax)', () => {
  const cohort = cohortReference([
    [10, 12, 14],
    [19, 20, 21],
    [11, 11, 11],
  ]);

  it('matches a hand computation: RCI = (x − baseline mean) / (√2 · SD₁ · √(1 − r))', () => {
    const b = baselineOf(series(10, 12, 14), 3)!; // mean 12
    const r = 0.6;
    const c = changeStats(
      input({ baseline: b, latest: 20, n: 4, cohort, reliability: { r, source: 'default' } }),
    );
    const sd1 = cohort.baselineSd!;
    const se = sd1 * Math.sqrt(1 - r);
    const sDiff = Math.sqrt(2) * se;
    expect(c.sDiff).toBeCloseTo(sDiff, 14);
    expect(c.rci).toBeCloseTo(8 / sDiff, 14);
    // √(156/8) = 4.416; S_diff = √2 · 4.416 · √0.4 = 3.950; RCI = 8 / 3.950 = 2.03 ≥ 1.96.
    expect(c.rci).toBeCloseTo(2.0254, 3);
    expect(c.verdict).toBe('reliable_increase');
  });

  it('calls |RCI| ≥ 1.96 reliable, in either direction, and smaller changes not reliable', () => {
    const b = baselineOf(series(10, 12, 14), 3)!;
    const rel = { r: 0.75, source: 'default' as const };
    const sDiff = Math.SQRT2 * cohort.baselineSd! * Math.sqrt(0.25);
    const up = changeStats(input({ baseline: b, latest: 12 + 2 * sDiff, n: 4, cohort, reliability: rel }));
    const down = changeStats(input({ baseline: b, latest: 12 - 2 * sDiff, n: 4, cohort, reliability: rel }));
    const small = changeStats(
      input({ baseline: b, latest: 12 + 1.9 * sDiff, n: 4, cohort, reliability: rel }),
    );
    expect([up.verdict, down.verdict, small.verdict]).toEqual([
      'reliable_increase',
      'reliable_decrease',
      'not_reliable',
    ]);
  });

  it('gives service scores a trend but no reliable-change verdict', () => {
    expect(defaultReliability('pd_risk_score')).toBeNull();
    expect(reliabilityOf('cc_clarity', new Map())).toBeNull();
    const b = baselineOf(series(40, 42, 44), 3)!;
    const c = changeStats(input({ baseline: b, latest: 60, n: 4, cohort, trendPerWeek: 5 }));
    expect(c.verdict).toBe('trend_only');
    expect(c.rci).toBeNull();
    expect(c.trendPerWeek).toBe(5);
  });

  it('uses the study’s reliability over the default, and lets a study give a score one it estimated', () => {
    expect(reliabilityOf('pd_hnr', new Map())).toEqual({ r: 0.4, source: 'default' });
    expect(reliabilityOf('pd_hnr', new Map([['pd_hnr', 0.7]]))).toEqual({ r: 0.7, source: 'study' });
    expect(reliabilityOf('pd_risk_score', new Map([['pd_risk_score', 0.8]]))).toEqual({
      r: 0.8,
      source: 'study',
    });
  });

  it('takes the defaults of the research notes, section 10.2', () => {
    expect(defaultReliability('pd_speech_rate')).toBe(0.6);
    expect(defaultReliability('pd_pause_duration')).toBe(0.4);
    expect(defaultReliability('pd_voice_quality')).toBe(0.6);
    expect(defaultReliability('pd_monotony')).toBe(0.5);
    expect(defaultReliability('ad_mlu_words')).toBe(0.4);
    expect(defaultReliability('ad_ttr')).toBe(0.5);
  });

  it('gives no verdict without a cohort SD', () => {
    const b = baselineOf(series(10, 12, 14), 3)!;
    const c = changeStats(
      input({ baseline: b, latest: 30, n: 4, reliability: { r: 0.6, source: 'default' } }),
    );
    expect(c.verdict).toBe('no_cohort_sd');
    expect(c.rci).toBeNull();
  });
});

describe('the trend', () => {
  it('is the least-squares slope per week', () => {
    const t = new Trend();
    // Weekly values 1, 3, 2, 6 at weeks 0–3: slope = Σ(t − t̄)(x − x̄) / Σ(t − t̄)² = (3 + 0 − 0.5 + 4.5) / 5 = 1.4 per week.
    [1, 3, 2, 6].forEach((x, i) => t.add(Date.parse(day(7 * i)), x));
    expect(t.perWeek()).toBeCloseTo(1.4, 12);
  });

  it('needs 3 values at more than one moment', () => {
    const t = new Trend();
    t.add(0, 1);
    t.add(WEEK, 2);
    expect(t.perWeek()).toBeNull();
    const same = new Trend();
    [1, 2, 3].forEach((x) => same.add(0, x));
    expect(same.perWeek()).toBeNull();
  });
});

const WEEK = 7 * 24 * 3600 * 1000;
