/**
 * The column schema: names every statistics package accepts, one column per catalogue measure in the
 * wide form, columns that depend only on the request, and the request schema's defaults and refusals.
 */
import { describe, expect, it } from 'vitest';
import { MEASURES } from '../../../shared/api/measures';
import { ExportRequestSchema } from '../../../shared/export';
import { unknownReferenceKeys } from '../../../main/export/describe';
import { exportFiles, tableDefs } from '../../../main/export/schema';
import { ParticipantSummary } from '../../../main/export/summary';

const SPSS_RESERVED = ['ALL', 'AND', 'BY', 'EQ', 'GE', 'GT', 'LE', 'LT', 'NE', 'NOT', 'OR', 'TO', 'WITH'];
const all = tableDefs(exportFiles({ forms: ['long', 'wide', 'summary'], includeLinkFile: true, timeZone: 'Europe/Berlin' }));

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
      expect(c.enum).toEqual(m.allowed ? [...m.allowed] : undefined);
      expect(c.description).toContain(m.meaning);
    }
  });

  it('narrows the measure columns to the chosen analysis types, and otherwise never changes', () => {
    const one = tableDefs(exportFiles({ forms: ['wide'], includeLinkFile: false, timeZone: 'UTC', analyses: ['alzheimers'] }));
    expect(one.find((t) => t.name === 'measures_wide.csv')!.columns.filter((c) => c.measure).map((c) => c.name)).toEqual(MEASURES.filter((m) => m.analysis === 'alzheimers').map((m) => m.key));
    expect(JSON.stringify(tableDefs(exportFiles({ forms: ['long', 'wide', 'summary'], includeLinkFile: true, timeZone: 'Europe/Berlin' })))).toBe(JSON.stringify(all));
  });

  it('marks free text for formula neutralisation and never a number', () => {
    for (const t of all) for (const c of t.columns) if (c.neutralised) expect(c.type, `${t.name}.${c.name}`).toBe('string');
    const long = all.find((t) => t.name === 'measures_long.csv')!;
    expect(long.columns.filter((c) => c.neutralised).map((c) => c.name)).toEqual(['participant', 'session', 'category']);
  });

  it('has reference values only for catalogue measures', () => {
    expect(unknownReferenceKeys()).toEqual([]);
  });
});

describe('the export request', () => {
  it('defaults to all forms, the standard preset and no link file', () => {
    expect(ExportRequestSchema.parse({ studyId: 1, timeZone: 'UTC' })).toEqual({ studyId: 1, timeZone: 'UTC', forms: ['long', 'wide', 'summary'], preset: 'standard', includeLinkFile: false });
  });

  it('refuses unknown zones, forms, types and states, and malformed dates', () => {
    for (const bad of [{ timeZone: 'Nowhere/City' }, { forms: ['tall'] }, { analyses: ['mood'] }, { states: ['done'] }, { from: '2024-13-01' }, { to: 'yesterday' }, { forms: [] }]) {
      expect(ExportRequestSchema.safeParse({ studyId: 1, timeZone: 'UTC', ...bad }).success, JSON.stringify(bad)).toBe(false);
    }
    expect(ExportRequestSchema.safeParse({ studyId: 1, timeZone: 'UTC', from: '2024-03-01', to: '2024-03-31T23:00:00+02:00' }).success).toBe(true);
  });
});

describe('per-participant summary', () => {
  const pd = MEASURES.filter((m) => m.key === 'pd_hnr' || m.key === 'wb_stress');
  const at = (i: number) => ({ recording: i, utc: `2024-01-0${i}T00:00:00Z`, local: null });
  const rowsOf = (s: ParticipantSummary) => {
    const rows = [...s.rows()];
    expect(rows.map((r) => r.measure.key)).toEqual(['wb_stress', 'pd_hnr']); // catalogue order
    return [rows.find((r) => r.measure.key === 'pd_hnr')!, rows.find((r) => r.measure.key === 'wb_stress')!];
  };

  it('takes the first and last values by time, the change between them, the mean and the sample SD', () => {
    const s = new ParticipantSummary('P1', pd);
    [10, 14, 12].forEach((v, i) => s.add('pd_hnr', v, at(i + 1), i === 1, i === 0 ? 'v1.2' : 'v1.3'));
    const [hnr, stress] = rowsOf(s);
    expect(hnr).toMatchObject({ n: 3, baseline: { recording: 1, value: 10 }, latest: { recording: 3, value: 12 }, mean: 12, simulated: true, apiVersions: ['v1.2', 'v1.3'] });
    expect(hnr!.sd).toBeCloseTo(2, 12);
    expect(stress).toMatchObject({ n: 0, baseline: null, latest: null, mean: null, sd: null, simulated: false });
  });

  it('gives no SD for one value and no mean for categories', () => {
    const s = new ParticipantSummary('P1', pd);
    s.add('pd_hnr', 7, at(1), false, 'v1.3');
    s.add('wb_stress', 'high', at(1), false, 'v1.3');
    const [hnr, stress] = rowsOf(s);
    expect(hnr).toMatchObject({ n: 1, mean: 7, sd: null });
    expect(stress).toMatchObject({ n: 1, mean: null, sd: null, baseline: { value: 'high' } });
  });

  it('stays accurate over many large values (Welford)', () => {
    const s = new ParticipantSummary('P1', pd);
    const xs = Array.from({ length: 10_000 }, (_, i) => 1e9 + (i % 10));
    xs.forEach((v) => s.add('pd_hnr', v, at(1), false, 'v1.3'));
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1));
    const [hnr] = rowsOf(s);
    expect(hnr!.mean).toBeCloseTo(mean, 4); // 1e-13 of the values' size
    expect(hnr!.sd).toBeCloseTo(sd, 7); // a naive sum of squares would lose every digit here
  });
});
