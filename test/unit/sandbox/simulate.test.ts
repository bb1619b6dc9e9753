import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { measuresOf, MEASURES } from '../../../shared/api/measures';
import { ANALYSIS_TYPES, type AnalysisType } from '../../../shared/api/vocabulary';
import {
  failsProcessing,
  simulateMeasures,
  SIMULATOR_VERSION,
  type SimulationInput,
} from '../../../main/sandbox/simulate';

const hex = (s: string): string => createHash('sha256').update(s).digest('hex');
const uuid = (s: string): string => {
  const h = hex(s);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};
const WEEK_MS = 7 * 86_400_000;
const T0 = Date.UTC(2025, 2, 3, 10);

const input = (
  account: number,
  recording: number,
  type: AnalysisType,
  over: Partial<SimulationInput> = {},
): SimulationInput => ({
  accountId: uuid(`account-${account}`),
  audioSha256: hex(`audio-${account}-${recording}`),
  type,
  speechSeconds: 60 + ((account * 7 + recording * 13) % 120),
  durationSeconds: 80 + ((account * 7 + recording * 13) % 120),
  recordedAt: new Date(T0 + recording * WEEK_MS).toISOString(),
  ...over,
});

/** A spread of inputs: 120 accounts × 5 recordings, with short and long speech. */
const SAMPLE = Array.from({ length: 120 }, (_, a) =>
  Array.from({ length: 5 }, (_, r) => [a, r] as const),
).flat();

const all = (type: AnalysisType, over: Partial<SimulationInput> = {}) =>
  SAMPLE.map(([a, r]) => simulateMeasures(input(a, r, type, over)));

const numbers = (rows: readonly Record<string, unknown>[], key: string): number[] =>
  rows.map((v) => v[key]).filter((x): x is number => typeof x === 'number');

const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;
const variance = (xs: readonly number[]): number => {
  const m = mean(xs);
  return xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1);
};
const corr = (xs: readonly number[], ys: readonly number[]): number => {
  const mx = mean(xs);
  const my = mean(ys);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  xs.forEach((x, i) => {
    const y = ys[i]!;
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) ** 2;
    syy += (y - my) ** 2;
  });
  return sxy / Math.sqrt(sxx * syy);
};

/** Plausible bounds for free speech (looser than the simulator's own clamps; see simulate.ts for sources). */
const PLAUSIBLE: Record<string, readonly [number, number]> = {
  pd_volume: [30, 90],
  pd_monoloudness: [1, 20],
  pd_monotony: [3, 80],
  pd_articulation: [400, 2500],
  pd_speech_rate: [50, 250],
  pd_speech_rate_stdev: [1, 80],
  pd_pause_duration: [100, 2500],
  pd_pause_duration_stdev: [20, 3000],
  pd_voice_quality: [3, 20],
  pd_hnr: [0, 30],
  pd_stuttering: [0, 25],
  pd_risk_score: [0, 100],
  ad_ttr: [0.15, 1],
  ad_brunet_index: [5, 30],
  ad_content_ratio: [0.25, 0.75],
  ad_mlu_words: [2, 25],
  ad_clause_ratio: [0.8, 3.5],
  ad_speech_rate: [50, 250],
  ad_speech_rate_stdev: [1, 80],
  ad_avg_pause_duration_ms: [100, 2500],
  ad_pause_filler_words_per_min: [0, 30],
  ad_long_pause_ratio: [0, 0.7],
  ad_p_hc: [0, 1],
  ad_p_mci: [0, 1],
  ad_p_ad: [0, 1],
  cc_word_rate: [50, 250],
  cc_fragment_rate: [1, 60],
  cc_filler_words_rate: [0, 30],
  cc_rhythm: [0, 100],
  cc_clarity: [0, 100],
  cc_positiveness: [0, 100],
  cc_speaking_rate: [0, 100],
};

const decimals = (x: number): number => {
  const s = String(x);
  const i = s.indexOf('.');
  return i === -1 ? 0 : s.length - i - 1;
};

describe('simulateMeasures: coverage and types', () => {
  it('has a version string', () => expect(SIMULATOR_VERSION).toMatch(/^sim-\d+/));

  it.each(ANALYSIS_TYPES)('%s: every catalogue measure of the type, and no other', (type) => {
    const expected = measuresOf(type)
      .map((m) => m.key)
      .sort();
    for (const v of all(type).slice(0, 100)) expect(Object.keys(v).sort()).toEqual(expected);
  });

  it('knows every catalogue measure (each is available in most results)', () => {
    for (const type of ANALYSIS_TYPES) {
      const rows = all(type);
      for (const m of measuresOf(type)) {
        const available = rows.filter((v) => v[m.key] !== null).length / rows.length;
        expect(available, m.key).toBeGreaterThan(0.9);
      }
    }
  });

  it('plausible bounds cover every numeric measure of the catalogue', () => {
    const numeric = MEASURES.filter((m) => m.valueType !== 'category')
      .map((m) => m.key)
      .sort();
    expect(Object.keys(PLAUSIBLE).sort()).toEqual(numeric);
  });

  it.each(ANALYSIS_TYPES)(
    '%s: integers, rounded numbers, categories from the allowed values, within range',
    (type) => {
      const rows = all(type, {});
      const short = SAMPLE.slice(0, 200).map(([a, r]) =>
        simulateMeasures(input(a, r, type, { speechSeconds: 31, durationSeconds: 33 })),
      );
      const long = SAMPLE.slice(0, 100).map(([a, r]) =>
        simulateMeasures(input(a, r, type, { speechSeconds: 600, durationSeconds: 900 })),
      );
      for (const v of [...rows, ...short, ...long]) {
        for (const m of measuresOf(type)) {
          const x = v[m.key];
          if (x === null) continue;
          if (m.valueType === 'category') {
            expect(typeof x, m.key).toBe('string');
            if (m.allowed) expect(m.allowed, m.key).toContain(x);
            continue;
          }
          expect(typeof x, m.key).toBe('number');
          const n = x as number;
          expect(Number.isFinite(n), m.key).toBe(true);
          if (m.valueType === 'integer') expect(Number.isInteger(n), `${m.key} = ${n}`).toBe(true);
          else expect(decimals(n), `${m.key} = ${n}`).toBeLessThanOrEqual(3);
          if (m.range) {
            expect(n, m.key).toBeGreaterThanOrEqual(m.range[0]);
            expect(n, m.key).toBeLessThanOrEqual(m.range[1]);
          }
          const [lo, hi] = PLAUSIBLE[m.key]!;
          expect(n, m.key).toBeGreaterThanOrEqual(lo);
          expect(n, m.key).toBeLessThanOrEqual(hi);
        }
      }
    },
  );

  it('population medians sit where the reference document puts healthy free speech', () => {
    const pd = all('parkinsons');
    const median = (key: string) => {
      const xs = numbers(pd, key).sort((a, b) => a - b);
      return xs[Math.floor(xs.length / 2)]!;
    };
    expect(median('pd_speech_rate')).toBeGreaterThan(120); // §4: about 150 wpm, older speakers slower
    expect(median('pd_speech_rate')).toBeLessThan(160);
    expect(median('pd_pause_duration')).toBeGreaterThan(200); // §1.2: medium pauses 200–1000 ms
    expect(median('pd_pause_duration')).toBeLessThan(1000);
    expect(median('pd_voice_quality')).toBeGreaterThan(9.33); // §1.4: connected-speech cut-off
    expect(median('pd_monotony')).toBeGreaterThan(15); // §1.2: 15–25 Hz men, 25–40 Hz women
    expect(median('pd_monotony')).toBeLessThan(40);
    expect(median('pd_stuttering')).toBeGreaterThan(1); // §1.2: about 2.4/min healthy
    expect(median('pd_stuttering')).toBeLessThan(4);
  });
});

describe('simulateMeasures: determinism and variation', () => {
  it('same input, same output', () => {
    for (const type of ANALYSIS_TYPES) {
      for (const [a, r] of SAMPLE.slice(0, 50))
        expect(simulateMeasures(input(a, r, type))).toEqual(simulateMeasures(input(a, r, type)));
    }
  });

  it('another recording of the same person gives other values', () => {
    const a = simulateMeasures(input(1, 1, 'parkinsons'));
    const b = simulateMeasures(input(1, 2, 'parkinsons'));
    expect(a).not.toEqual(b);
  });

  it('the same recording on a neighbouring day changes only slightly (slow drift)', () => {
    for (let a = 0; a < 30; a++) {
      const day1 = simulateMeasures(input(a, 0, 'parkinsons', { recordedAt: '2025-06-01T10:00:00Z' }));
      const day2 = simulateMeasures(input(a, 0, 'parkinsons', { recordedAt: '2025-06-02T10:00:00Z' }));
      for (const key of ['pd_speech_rate', 'pd_pause_duration']) {
        const x = day1[key];
        const y = day2[key];
        if (typeof x === 'number' && typeof y === 'number')
          expect(Math.abs(x - y) / x, key).toBeLessThan(0.05);
      }
    }
  });

  it('an unparseable date or odd durations do not throw and stay in range', () => {
    for (const over of [
      { recordedAt: 'not a date' },
      { speechSeconds: 0, durationSeconds: 0 },
      { speechSeconds: Number.NaN },
      { durationSeconds: 5, speechSeconds: 50 },
    ]) {
      const v = simulateMeasures(input(3, 3, 'alzheimers', over));
      for (const [k, x] of Object.entries(v))
        if (typeof x === 'number') expect(Number.isFinite(x), k).toBe(true);
    }
  });

  it('one person clusters: within-account variance of speech rate is well below the between-account variance (50 × 10)', () => {
    const perAccount = Array.from({ length: 50 }, (_, a) =>
      numbers(
        Array.from({ length: 10 }, (_, r) => simulateMeasures(input(a, r, 'parkinsons'))),
        'pd_speech_rate',
      ),
    );
    const within = mean(perAccount.map(variance));
    const between = variance(perAccount.map(mean));
    expect(within).toBeLessThan(between / 2);
    for (const key of ['pd_monotony', 'pd_pause_duration', 'pd_voice_quality']) {
      const acc = Array.from({ length: 50 }, (_, a) =>
        numbers(
          Array.from({ length: 10 }, (_, r) => simulateMeasures(input(a, r, 'parkinsons'))),
          key,
        ),
      );
      expect(mean(acc.map(variance)), key).toBeLessThan(variance(acc.map(mean)));
    }
  });

  it('wellbeing ratings are fairly stable week to week', () => {
    let same = 0;
    let pairs = 0;
    for (let a = 0; a < 60; a++) {
      const weeks = Array.from({ length: 12 }, (_, r) => simulateMeasures(input(a, r, 'wellbeing')));
      for (let r = 1; r < weeks.length; r++) {
        for (const key of ['wb_stress', 'wb_anxiety', 'wb_depression']) {
          const x = weeks[r - 1]![key];
          const y = weeks[r]![key];
          if (x === null || y === null) continue;
          pairs++;
          if (x === y) same++;
        }
      }
    }
    expect(same / pairs).toBeGreaterThan(0.75);
  });
});

describe('simulateMeasures: internal consistency', () => {
  it("Alzheimer's probabilities sum to 1 and the class is their argmax", () => {
    const rows = all('alzheimers');
    let complete = 0;
    for (const v of rows) {
      const p = [v.ad_p_hc, v.ad_p_mci, v.ad_p_ad];
      if (p.every((x) => x === null)) continue;
      expect(
        p.every((x) => typeof x === 'number'),
        'probabilities are available together',
      ).toBe(true);
      complete++;
      const [hc, mci, ad] = p as [number, number, number];
      expect(Math.abs(hc + mci + ad - 1)).toBeLessThanOrEqual(0.001);
      const top = Math.max(hc, mci, ad);
      expect(v[`ad_p_${v.ad_cognition as string}`]).toBe(top);
    }
    expect(complete).toBeGreaterThan(rows.length * 0.9);
    const classes = new Set(rows.map((v) => v.ad_cognition));
    expect([...classes].sort()).toEqual(['ad', 'hc', 'mci']);
    expect(rows.filter((v) => v.ad_cognition === 'hc').length / rows.length).toBeGreaterThan(0.5);
  });

  it("Parkinson's band follows the score (low < 34, medium 34–66, high ≥ 67)", () => {
    const rows = all('parkinsons');
    for (const v of rows) {
      const s = v.pd_risk_score;
      if (s === null) {
        expect(v.pd_risk_band).toBeNull();
        continue;
      }
      expect(Number.isInteger(s)).toBe(true);
      expect(s).toBeGreaterThanOrEqual(0);
      expect(s).toBeLessThanOrEqual(100);
      expect(v.pd_risk_band).toBe((s as number) >= 67 ? 'high' : (s as number) >= 34 ? 'medium' : 'low');
    }
    const bands = rows.map((v) => v.pd_risk_band);
    expect(new Set(bands)).toEqual(new Set(['low', 'medium', 'high', null]));
    expect(bands.filter((b) => b === 'low').length / rows.length).toBeGreaterThan(0.6);
  });

  it('speech rates agree across types for the same recording (pd, ad, communication coach)', () => {
    for (const [a, r] of SAMPLE) {
      const pd = simulateMeasures(input(a, r, 'parkinsons')).pd_speech_rate;
      const ad = simulateMeasures(input(a, r, 'alzheimers')).ad_speech_rate;
      const cc = simulateMeasures(input(a, r, 'communication_coach')).cc_word_rate;
      if (typeof pd === 'number' && typeof ad === 'number') expect(Math.abs(pd - ad)).toBeLessThan(12);
      if (typeof pd === 'number') expect(Math.abs(pd - (cc as number))).toBeLessThan(15);
    }
  });

  it('the communication coach speaking-rate score follows the word rate (§4: 100 at 140–160 wpm, 0 at 90 and 210)', () => {
    for (const v of all('communication_coach')) {
      const w = v.cc_word_rate as number;
      const s = v.cc_speaking_rate as number;
      if (w >= 140 && w <= 160) expect(s).toBe(100);
      if (w <= 90 || w >= 210) expect(s).toBe(0);
      if (w < 140) expect(s).toBe(Math.round(Math.max(0, (100 * (w - 90)) / 50)));
    }
  });

  it('the clinical outputs point the way the literature does', () => {
    const pd = all('parkinsons');
    const withScore = pd.filter(
      (v) =>
        typeof v.pd_risk_score === 'number' &&
        typeof v.pd_pause_duration === 'number' &&
        typeof v.pd_monotony === 'number',
    );
    const score = withScore.map((v) => v.pd_risk_score as number);
    expect(
      corr(
        score,
        withScore.map((v) => v.pd_pause_duration as number),
      ),
    ).toBeGreaterThan(0.1); // §1.2 pauses ↑
    const high = withScore.filter((v) => v.pd_risk_band === 'high');
    const low = withScore.filter((v) => v.pd_risk_band === 'low');
    expect(mean(numbers(high, 'pd_voice_quality'))).toBeLessThan(mean(numbers(low, 'pd_voice_quality'))); // §1.2 CPPS ↓
    expect(mean(numbers(high, 'pd_stuttering'))).toBeGreaterThan(mean(numbers(low, 'pd_stuttering'))); // §1.2 Gooch

    const ad = all('alzheimers').filter(
      (v) => typeof v.ad_p_ad === 'number' && typeof v.ad_speech_rate === 'number',
    );
    expect(
      corr(
        ad.map((v) => v.ad_p_ad as number),
        ad.map((v) => v.ad_speech_rate as number),
      ),
    ).toBeLessThan(-0.1); // §2.2 slower
  });
});

describe('simulateMeasures: availability', () => {
  const rows = (type: AnalysisType, speechSeconds: number) =>
    Array.from({ length: 2000 }, (_, i) =>
      simulateMeasures(
        input(i % 200, Math.floor(i / 200), type, { speechSeconds, durationSeconds: speechSeconds * 1.3 }),
      ),
    );

  it('communication coach measures and the cognition class are never null, even for short speech', () => {
    for (const speech of [31, 120]) {
      for (const v of rows('communication_coach', speech))
        for (const [k, x] of Object.entries(v)) expect(x, k).not.toBeNull();
      for (const v of rows('alzheimers', speech)) expect(v.ad_cognition).not.toBeNull();
    }
  });

  it('about 3 % of optional values are null, a little more under 45 s of speech', () => {
    const rate = (speech: number) => {
      let nulls = 0;
      let total = 0;
      for (const type of ['wellbeing', 'parkinsons', 'alzheimers'] as const) {
        for (const v of rows(type, speech)) {
          for (const [k, x] of Object.entries(v)) {
            if (k === 'ad_cognition') continue;
            total++;
            if (x === null) nulls++;
          }
        }
      }
      return nulls / total;
    };
    const long = rate(120);
    const short = rate(31);
    expect(long).toBeGreaterThan(0.015);
    expect(long).toBeLessThan(0.045);
    expect(short).toBeGreaterThan(long);
    expect(short).toBeLessThan(0.1);
  });
});

describe('failsProcessing', () => {
  const hashes = Array.from({ length: 2000 }, (_, i) => hex(`upload-${i}`));

  it.each(ANALYSIS_TYPES)('%s: fails about 20 % of recordings at failureRate 0.2', (type) => {
    const failed = hashes.filter((audioSha256) =>
      failsProcessing({ audioSha256, type, failureRate: 0.2 }),
    ).length;
    expect(Math.abs(failed / hashes.length - 0.2)).toBeLessThanOrEqual(0.03);
  });

  it('is deterministic, never fails at 0 and always fails at 1', () => {
    for (const audioSha256 of hashes.slice(0, 200)) {
      expect(failsProcessing({ audioSha256, type: 'parkinsons', failureRate: 0.5 })).toBe(
        failsProcessing({ audioSha256, type: 'parkinsons', failureRate: 0.5 }),
      );
      expect(failsProcessing({ audioSha256, type: 'parkinsons', failureRate: 0 })).toBe(false);
      expect(failsProcessing({ audioSha256, type: 'parkinsons', failureRate: 1 })).toBe(true);
    }
  });

  it('decides each type independently', () => {
    const a = hashes.map((audioSha256) =>
      failsProcessing({ audioSha256, type: 'parkinsons', failureRate: 0.5 }),
    );
    const b = hashes.map((audioSha256) =>
      failsProcessing({ audioSha256, type: 'alzheimers', failureRate: 0.5 }),
    );
    const agree = a.filter((x, i) => x === b[i]).length / a.length;
    expect(agree).toBeGreaterThan(0.4);
    expect(agree).toBeLessThan(0.6);
  });

  it('a higher rate fails a superset of the recordings', () => {
    for (const audioSha256 of hashes.slice(0, 500)) {
      if (failsProcessing({ audioSha256, type: 'wellbeing', failureRate: 0.1 })) {
        expect(failsProcessing({ audioSha256, type: 'wellbeing', failureRate: 0.3 })).toBe(true);
      }
    }
  });
});
