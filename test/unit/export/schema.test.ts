/**
 * The column schema: names every statistics package accepts, one column per catalogue measure in the
 * wide form, columns that depend only on the request, and the request schema's defaults and refusals.
 */
import { describe, expect, it } from 'vitest';
import { MEASURES } from '../../../shared/api/measures';
import { baselineOf, BaselineWindow, meanSd } from '../../../shared/baseline';
import { changeStats, NO_COHORT } from '../../../shared/change';
import { reliabilityOf } from '../../../shared/reliability';
import { ExportRequestSchema } from '../../../shared/export';
import { unknownReferenceKeys } from '../../../main/export/describe';
import { exportFiles, tableDefs } from '../../../main/export/schema';
import { ParticipantSummary } from '../../../main/export/summary';

const SPSS_RESERVED = ['ALL', 'AND', 'BY', 'EQ', 'GE', 'GT', 'LE', 'LT', 'NE', 'NOT', 'OR', 'TO', 'WITH'];
const all = tableDefs(
  exportFiles({ forms: ['long', 'wide', 'summary'], includeLinkFile: true, timeZone: 'Europe/Berlin' }),
);

describe('column schema', () => {
  it('uses names SPSS, SAS, R and pandas accept: ASCII snake_case from a letter, at most 32 characters, unique ignoring case, no reserved word', () => {
    for (const t of all) {
      const names = t.columns.map((c) => c.name);
      expect(new Set(names.map((n) => n.toLowerCase())).size, t.name).toBe(names.length);
      for (const n of names) {
        expect(n).toMatch(/^[a-z][a-z0-9_]{0,31}$/);
        expect(SPSS_RESERVED).not.toContain(n.toUpperCase());
      }
    }
  });

  it('gives the wide form one column per catalogue measure, in catalogue order, typed from the catalogue', () => {
    const wide = all.find((t) => t.name === 'measures_wide.csv')!;
    const measureCols = wide.columns.filter((c) => c.measure);
    expect(measureCols.map((c) => c.name)).toEqual(MEASURES.map((m) => m.key));
    for (const m of MEASURES) {
      const c = wide.columns.find((x) => x.name === m.key)!;
      expect(c.type).toBe(m.valueType === 'category' ? 'string' : m.valueType);
      expect(c.unit).toBe(m.unit ?? undefined);
      // Kept values may lie outside the specification (flagged): its classes and ranges are described, not declared as constraints.
      expect(c.enum).toBeUndefined();
      expect(c.range).toBeUndefined();
      for (const a of m.allowed ?? []) expect(c.description).toContain(a);
      if (m.range) expect(c.description).toContain(`${m.range[0]} to ${m.range[1]}`);
      expect(c.description).toContain(m.meaning);
    }
  });

  it('narrows the measure columns to the chosen analysis types, and otherwise never changes', () => {
    const one = tableDefs(
      exportFiles({ forms: ['wide'], includeLinkFile: false, timeZone: 'UTC', analyses: ['alzheimers'] }),
    );
    expect(
      one
        .find((t) => t.name === 'measures_wide.csv')!
        .columns.filter((c) => c.measure)
        .map((c) => c.name),
    ).toEqual(MEASURES.filter((m) => m.analysis === 'alzheimers').map((m) => m.key));
    expect(
      JSON.stringify(
        tableDefs(
          exportFiles({
            forms: ['long', 'wide', 'summary'],
            includeLinkFile: true,
            timeZone: 'Europe/Berlin',
          }),
        ),
      ),
    ).toBe(JSON.stringify(all));
  });

  it('marks free text for formula neutralisation and never a number', () => {
    for (const t of all)
      for (const c of t.columns) if (c.neutralised) expect(c.type, `${t.name}.${c.name}`).toBe('string');
    const long = all.find((t) => t.name === 'measures_long.csv')!;
    expect(long.columns.filter((c) => c.neutralised).map((c) => c.name)).toEqual([
      'participant',
      'session',
      'visit',
      'category',
    ]);
  });

  it('has reference values only for catalogue measures', () => {
    expect(unknownReferenceKeys()).toEqual([]);
  });
});

describe('the export request', () => {
  it("defaults to all forms, the standard preset, no files for statistics packages, no link file and the study's baseline sessions", () => {
    expect(ExportRequestSchema.parse({ studyId: 1, timeZone: 'UTC' })).toEqual({
      studyId: 1,
      timeZone: 'UTC',
      forms: ['long', 'wide', 'summary'],
      preset: 'standard',
      extras: [],
      includeLinkFile: false,
    });
  });

  it('refuses unknown zones, forms, types and states, and malformed dates', () => {
    for (const bad of [
      { timeZone: 'Nowhere/City' },
      { forms: ['tall'] },
      { extras: ['sas'] },
      { analyses: ['mood'] },
      { states: ['done'] },
      { from: '2024-13-01' },
      { to: 'yesterday' },
      { forms: [] },
      { baselineSessions: 0 },
      { baselineSessions: 21 },
      { baselineSessions: 2.5 },
      { baselineSessions: '3' },
    ]) {
      expect(
        ExportRequestSchema.safeParse({ studyId: 1, timeZone: 'UTC', ...bad }).success,
        JSON.stringify(bad),
      ).toBe(false);
    }
    expect(
      ExportRequestSchema.safeParse({
        studyId: 1,
        timeZone: 'UTC',
        from: '2024-03-01',
        to: '2024-03-31T23:00:00+02:00',
      }).success,
    ).toBe(true);
    for (const k of [1, 20])
      expect(
        ExportRequestSchema.parse({ studyId: 1, timeZone: 'UTC', baselineSessions: k }).baselineSessions,
      ).toBe(k);
  });
});

describe('per-participant summary', () => {
  const two = MEASURES.filter((m) => m.key === 'pd_hnr' || m.key === 'wb_stress');
  const time = (i: number) => new Date(Date.UTC(2024, 0, 1) + i * 86_400_000).toISOString();
  const at = (i: number) => ({ recording: i, recordedAt: time(i), utc: time(i), local: null });
  const rows = (s: ParticipantSummary) => [...s.rows()];
  const row = (s: ParticipantSummary, key: string, version: string | null) =>
    rows(s).find((r) => r.measure.key === key && r.apiVersion === version)!;

  it('has the columns of the issue, in order, with k in their definitions', () => {
    const summary = tableDefs(
      exportFiles({ forms: ['summary'], includeLinkFile: false, timeZone: 'UTC', baselineSessions: 5 }),
    ).find((t) => t.name === 'participant_summary.csv')!;
    expect(summary.columns.map((c) => c.name)).toEqual([
      'participant',
      'analysis',
      'measure',
      'kind',
      'unit',
      'api_version',
      'n',
      'baseline_n',
      'baseline_from_utc',
      'baseline_from_local',
      'baseline_to_utc',
      'baseline_to_local',
      'baseline',
      'baseline_sd',
      'baseline_category',
      'latest_recording',
      'latest_recorded_at_utc',
      'latest_recorded_at_local',
      'latest_value',
      'latest_category',
      'change_verdict',
      'change',
      'sd_cohort_within',
      'sd_used',
      'sd_source',
      'change_in_sd',
      'reliability',
      'reliability_source',
      'rci_sd',
      's_diff',
      'rci',
      'reliable_change',
      'trend_per_week',
      'mean',
      'sd',
      'simulated',
    ]);
    expect(summary.primaryKey).toEqual(['participant', 'measure', 'api_version']);
    expect(summary.rowIs).toBe('one participant, measure and API version');
    expect(summary.columns.find((c) => c.name === 'baseline_n')!.description).toContain(
      'min(k, n) with k = 5',
    );
    expect(summary.columns.find((c) => c.name === 'baseline')!.description).toContain('the first 5 values');
    expect(summary.columns.find((c) => c.name === 'baseline')!.description).toContain('no baseline yet');
    expect(summary.columns.find((c) => c.name === 'baseline')!.description).toContain('participant timeline');
    expect(summary.description).toMatch(/never mixed/);
    // The default k is the timeline's.
    const dflt = tableDefs(exportFiles({ forms: ['summary'], includeLinkFile: false, timeZone: 'UTC' })).find(
      (t) => t.name === 'participant_summary.csv',
    )!;
    expect(dflt.columns.find((c) => c.name === 'baseline_n')!.description).toContain('k = 3');
  });

  it('gives one row per API version, never mixing them: baseline of the first k, latest, change, change in SD, mean and SD of all', () => {
    const s = new ParticipantSummary('P1', two, 3);
    // v1.2: 10, 12, 14, then 20 (k = 3: baseline 12 ± 2, change 8 = 4 SD); v1.3 interleaved: 30, 30, 33 (no session after its baseline).
    const series: [number, number, string][] = [
      [1, 10, 'v1.2'],
      [2, 30, 'v1.3'],
      [3, 12, 'v1.2'],
      [4, 30, 'v1.3'],
      [5, 14, 'v1.2'],
      [6, 33, 'v1.3'],
      [7, 20, 'v1.2'],
    ];
    for (const [i, v, ver] of series) s.add('pd_hnr', v, at(i), i === 6, ver);
    expect(rows(s).map((r) => [r.measure.key, r.apiVersion, r.n])).toEqual([
      ['wb_stress', null, 0],
      ['pd_hnr', 'v1.2', 4],
      ['pd_hnr', 'v1.3', 3],
    ]); // catalogue order, then version
    const v12 = row(s, 'pd_hnr', 'v1.2');
    expect(v12).toMatchObject({
      n: 4,
      baselineN: 3,
      baselineFrom: { recording: 1 },
      baselineTo: { recording: 5 },
      baseline: 12,
      baselineSd: 2,
      baselineCategory: null,
      latest: { recording: 7, value: 20 },
      change: {
        verdict: 'no_cohort_sd',
        change: 8,
        changeInSd: 4,
        sdSource: 'participant',
        reliability: 0.4,
      },
      mean: 14,
      simulated: false,
    });
    expect(v12.sd).toBeCloseTo(Math.sqrt(((10 - 14) ** 2 + (12 - 14) ** 2 + 0 + 36) / 3), 12);
    const v13 = row(s, 'pd_hnr', 'v1.3');
    expect(v13).toMatchObject({
      n: 3,
      baselineN: 3,
      baseline: 31,
      latest: { recording: 6, value: 33 },
      change: { verdict: 'no_session_after_baseline', change: null, changeInSd: null },
      mean: 31,
      simulated: true,
    });
    expect(row(s, 'wb_stress', null)).toMatchObject({
      n: 0,
      baselineN: 0,
      baselineFrom: null,
      baselineTo: null,
      baseline: null,
      baselineSd: null,
      latest: null,
      change: null,
      mean: null,
      sd: null,
      simulated: false,
    });
  });

  it("is exactly the timeline's definition (baselineOf, changeStats) for every k", () => {
    const xs = [3.5, 7.25, 1e9 + 1, -2, 0.1 + 0.2, 4, 4, 11, 6.5, 2, 9, 1.75];
    for (const k of [1, 2, 3, 5, 12, 20]) {
      for (let n = 1; n <= xs.length; n++) {
        const s = new ParticipantSummary('P1', two, k);
        xs.slice(0, n).forEach((v, i) => s.add('pd_hnr', v, at(i + 1), false, 'v1.3'));
        const r = row(s, 'pd_hnr', 'v1.3');
        const b = baselineOf(
          xs.slice(0, n).map((value, i) => ({ recordedAt: time(i + 1), value })),
          k,
        );
        expect(r.baselineN, `k=${k} n=${n}`).toBe(Math.min(k, n));
        expect(b === null, `k=${k} n=${n}`).toBe(n < k);
        expect(r.baseline).toBe(b?.mean ?? null);
        expect(r.baselineSd).toBe(b?.sd ?? null);
        const c = changeStats({
          k,
          n,
          baseline: b,
          latest: xs[n - 1]!,
          cohort: NO_COHORT,
          reliability: reliabilityOf('pd_hnr', new Map()),
          trendPerWeek: r.change!.trendPerWeek,
        });
        expect(r.change).toEqual(c);
        expect(r.change!.change).toBe(n > k ? xs[n - 1]! - b!.mean : null);
        expect(r.mean).toBeCloseTo(meanSd(xs.slice(0, n)).mean, 3);
      }
    }
  });

  it('gives no baseline before k values, no change before a value after it, no baseline SD with k = 1, and no change in SD without a spread', () => {
    const one = new ParticipantSummary('P1', two, 3);
    one.add('pd_hnr', 7, at(1), false, 'v1.3');
    one.add('pd_hnr', 8, at(2), false, 'v1.3');
    expect(row(one, 'pd_hnr', 'v1.3')).toMatchObject({
      n: 2,
      baselineN: 2,
      baseline: null,
      baselineSd: null,
      change: { verdict: 'no_baseline_yet', change: null, changeInSd: null },
      mean: 7.5,
    });
    const k1 = new ParticipantSummary('P1', two, 1);
    [10, 14, 12].forEach((v, i) => k1.add('pd_hnr', v, at(i + 1), false, 'v1.3'));
    expect(row(k1, 'pd_hnr', 'v1.3')).toMatchObject({
      baselineN: 1,
      baselineFrom: { recording: 1 },
      baselineTo: { recording: 1 },
      baseline: 10,
      baselineSd: null,
      change: { change: 2, changeInSd: null },
    });
    const flat = new ParticipantSummary('P1', two, 3);
    [5, 5, 5, 9].forEach((v, i) => flat.add('pd_hnr', v, at(i + 1), false, 'v1.3'));
    expect(row(flat, 'pd_hnr', 'v1.3')).toMatchObject({
      baseline: 5,
      baselineSd: 0,
      change: { change: 4, sdUsed: null, changeInSd: null },
    });
  });

  it('gives categories the first value as baseline and the latest, but no mean, SD or change', () => {
    const s = new ParticipantSummary('P1', two, 2);
    ['low', 'high', 'high', 'moderate'].forEach((v, i) => s.add('wb_stress', v, at(i + 1), false, 'v1.3'));
    expect(row(s, 'wb_stress', 'v1.3')).toMatchObject({
      n: 4,
      baselineN: 2,
      baselineFrom: { recording: 1 },
      baselineTo: { recording: 2 },
      baselineCategory: 'low',
      baseline: null,
      baselineSd: null,
      latest: { recording: 4, value: 'moderate' },
      change: null,
      mean: null,
      sd: null,
    });
  });

  it("counts only values with an API version and of their measure's type", () => {
    const s = new ParticipantSummary('P1', two, 3);
    s.add('pd_hnr', 5, at(1), false, null);
    s.add('pd_hnr', 'high', at(2), false, 'v1.3');
    s.add('wb_stress', 3, at(3), false, 'v1.3');
    s.add('not_a_measure', 3, at(4), false, 'v1.3');
    expect(rows(s).map((r) => [r.measure.key, r.apiVersion, r.n])).toEqual([
      ['wb_stress', null, 0],
      ['pd_hnr', null, 0],
    ]);
  });

  it('keeps at most k values per series, and stays accurate over many large values (Welford)', () => {
    const w = new BaselineWindow(3);
    for (let i = 0; i < 10_000; i++) w.add({ recordedAt: time(i), value: i });
    expect(w.size).toBe(3);
    expect(w.stats()).toEqual({ n: 3, mean: 1, sd: 1, from: time(0), to: time(2) });
    const s = new ParticipantSummary('P1', two, 20);
    const xs = Array.from({ length: 10_000 }, (_, i) => 1e9 + (i % 10));
    xs.forEach((v, i) => s.add('pd_hnr', v, at(i % 28), false, 'v1.3'));
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1));
    const r = row(s, 'pd_hnr', 'v1.3');
    expect(r.baselineN).toBe(20);
    expect(r.baseline).toBe(meanSd(xs.slice(0, 20)).mean);
    expect(r.mean).toBeCloseTo(mean, 4); // 1e-13 of the values' size
    expect(r.sd).toBeCloseTo(sd, 7); // a naive sum of squares would lose every digit here
  });
});
