/**
 * Round trip: a study seeded with awkward values is exported in every form, read back with papaparse
 * (an independent parser), and every cell is compared with the database, read here with its own SQL.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEASURES } from '../../../shared/api/measures';
import { ANALYSIS_TYPES } from '../../../shared/api/vocabulary';
import type { ExportReport } from '../../../shared/export';
import {
  ACCOUNT_PREFIX,
  AWKWARD_CODES,
  SECRET_FOLDER,
  seedAwkwardStudy,
  type SeededRecording,
} from './awkward-study';
import type { Store } from '../../../main/db/store/types';
import { mustExport, num, openExportStore, readCsv, tempDir, unneutralise, type ParsedCsv } from './helpers';

const tmp = tempDir();
let store: Store;
let seeded: SeededRecording[];
let report: ExportReport;
let long: ParsedCsv, wide: ParsedCsv, summary: ParsedCsv, recordings: ParsedCsv;
/** The study's values and recordings as the database holds them (the export does not change them). */
let values: Map<string, DbValue>;
let recordingRows: Record<string, string | number | null>[];
/** Every stored value of an uploaded recording of the study, by recording time (ties by id). */
let summaryPoints: SummaryPoint[];

interface SummaryPoint {
  code: string;
  key: string;
  version: string;
  recording: number;
  at: string;
  num: number | null;
  text: string | null;
  /** 1 when the recording's results were simulated. */
  simulated: number;
}

interface DbValue {
  recording: number;
  key: string;
  num: number | null;
  text: string | null;
}

beforeAll(async () => {
  store = await openExportStore(tmp.dir);
  seeded = (await seedAwkwardStudy(store)).recordings;
  report = await mustExport(store, {}, { outDir: tmp.dir, folderName: 'all' });
  const dir = join(tmp.dir, 'all');
  long = readCsv(join(dir, 'measures_long.csv'));
  wide = readCsv(join(dir, 'measures_wide.csv'));
  summary = readCsv(join(dir, 'participant_summary.csv'));
  recordings = readCsv(join(dir, 'recordings.csv'));
  values = new Map(
    (
      await store.all<DbValue>(
        `SELECT mv.recording_id AS recording, mv.measure_key AS key, mv.value_num AS num, mv.value_text AS text FROM measure_values mv JOIN recordings r ON r.id = mv.recording_id WHERE r.study_id = 1`,
      )
    ).map((v) => [`${v.recording}/${v.key}`, v]),
  );
  recordingRows = await store.all(`SELECT * FROM recordings WHERE study_id = 1`);
  summaryPoints = await store.all<SummaryPoint>(
    `SELECT p.code AS code, mv.measure_key AS key, r.api_version AS version, r.id AS recording, r.recorded_at AS at, mv.value_num AS num, mv.value_text AS text,
       CASE WHEN r.result_source = 'simulated' THEN 1 ELSE 0 END AS simulated
     FROM measure_values mv JOIN recordings r ON r.id = mv.recording_id JOIN participants p ON p.id = r.participant_id
     WHERE r.study_id = 1 AND r.upload_state = 'uploaded' ORDER BY r.recorded_at, r.id`,
  );
});
afterAll(async () => {
  await store.close();
  tmp.cleanup();
});

const exported = () => seeded.filter((r) => Object.keys(r.states).length > 0);

describe('export round trip (papaparse against the database)', () => {
  it('writes the four tables, the data-quality tables, the codebook, datapackage.json, the loaders and checksums', () => {
    expect(readdirSync(join(tmp.dir, 'all')).sort()).toEqual([
      'SHA256SUMS',
      'answers_as_received.csv',
      'codebook.md',
      'completeness.csv',
      'data_quality.csv',
      'datapackage.json',
      'load.R',
      'load.py',
      'measures_long.csv',
      'measures_wide.csv',
      'participant_summary.csv',
      'recordings.csv',
      'visits.csv',
    ]);
    expect(report.counts.recordings).toBe(exported().length);
    expect(report.counts.participants).toBe(AWKWARD_CODES.length);
    expect(report.anySimulated).toBe(true);
    expect(report.apiVersions).toEqual(['v1.2', 'v1.3']);
  });

  it('long form: one row per exported (recording, type) and measure, every value equal to the database, missing ones empty', () => {
    const expected = exported().flatMap((r) =>
      ANALYSIS_TYPES.filter((t) => r.states[t]).flatMap((t) =>
        MEASURES.filter((m) => m.analysis === t).map((m) => ({ r, t, m })),
      ),
    );
    expect(long.rows).toHaveLength(expected.length);
    expect(report.files.find((f) => f.name === 'measures_long.csv')!.rows).toBe(expected.length);
    const byKey = new Map(long.records.map((x) => [`${x['recording']}/${x['measure']}`, x]));
    expect(byKey.size).toBe(expected.length);
    let missing = 0;
    for (const { r, t, m } of expected) {
      const row = byKey.get(`${r.id}/${m.key}`)!;
      expect(row, `${r.id}/${m.key}`).toBeDefined();
      expect(unneutralise(row['participant']!)).toBe(r.participant);
      expect(row['session'] === '' ? null : unneutralise(row['session']!)).toBe(r.session);
      expect(row['analysis']).toBe(t);
      expect(row['analysis_state']).toBe(r.states[t]);
      expect(row['kind']).toBe(m.kind);
      expect(row['unit']).toBe(m.unit ?? '');
      expect(row['api_version']).toBe(r.apiVersion);
      expect(row['simulated']).toBe(String(r.simulated));
      expect(Date.parse(row['recorded_at_utc']!)).toBe(Date.parse(r.recordedAt));
      const v = values.get(`${r.id}/${m.key}`);
      if (!v) {
        missing++;
        expect(row['value']).toBe('');
        expect(row['category']).toBe('');
      } else if (v.num !== null) {
        expect(num(row['value'])).toBe(v.num); // exact: the shortest round-trip form of the double
        expect(row['category']).toBe('');
      } else {
        expect(row['value']).toBe('');
        expect(unneutralise(row['category']!)).toBe(v.text);
      }
    }
    expect(missing).toBe(report.counts.missing);
    expect(missing).toBeGreaterThan(50); // failed, pending and omitted values are really there
  });

  it('never writes 0 for a value the service did not provide, and keeps negative numbers as numbers', () => {
    const empties = long.records.filter((x) => x['value'] === '' && x['category'] === '');
    expect(empties.length).toBe(report.counts.missing);
    expect(
      empties.every(
        (x) => x['analysis_state'] !== 'completed' || !values.has(`${x['recording']}/${x['measure']}`),
      ),
    ).toBe(true);
    const volumes = long.records.filter((x) => x['measure'] === 'pd_volume' && x['value'] !== '');
    expect(volumes.length).toBeGreaterThan(0);
    expect(volumes.every((x) => /^-\d+$/.test(x['value']!))).toBe(true);
    expect(long.raw).toContain('e-7');
  });

  it('wide form: one row per recording, a column per measure, equal to the database', () => {
    expect(wide.rows).toHaveLength(exported().length);
    const measureCols = wide.header.filter((h) => MEASURES.some((m) => m.key === h));
    expect(measureCols).toEqual(MEASURES.map((m) => m.key));
    for (const r of exported()) {
      const row = wide.records.find((x) => x['recording'] === String(r.id))!;
      expect(unneutralise(row['participant']!)).toBe(r.participant);
      for (const m of MEASURES) {
        const v = r.states[m.analysis] ? values.get(`${r.id}/${m.key}`) : undefined;
        const cell = row[m.key]!;
        if (!v) expect(cell, `${r.id}/${m.key}`).toBe('');
        else if (v.num !== null) expect(num(cell)).toBe(v.num);
        else expect(unneutralise(cell)).toBe(v.text);
      }
      for (const t of ANALYSIS_TYPES)
        expect(
          row[
            `${{ wellbeing: 'wb', parkinsons: 'pd', alzheimers: 'ad', communication_coach: 'cc' }[t]}_state`
          ],
        ).toBe(r.states[t] ?? '');
    }
  });

  it('recordings.csv: provenance of every exported recording, only the file name, and no account ids', () => {
    const rows = recordingRows;
    expect(recordings.rows).toHaveLength(exported().length);
    for (const x of recordings.records) {
      const r = rows.find((y) => String(y['id']) === x['recording'])!;
      expect(unneutralise(x['file_name']!)).toBe(String(r['source_path']).split('/').pop());
      expect(x['content_sha256']).toBe(r['content_sha256']);
      expect(x['recording_id']).toBe(r['recording_id']);
      expect(num(x['speech_duration_seconds'])).toBe(r['svc_speech_seconds']);
      expect(num(x['speech_estimate_seconds'])).toBe(r['speech_estimate_seconds']);
      expect(x['simulated']).toBe(r['result_source'] === 'simulated' ? 'true' : 'false');
      expect(x['recorded_at_local']).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    }
    for (const f of readdirSync(join(tmp.dir, 'all'))) {
      const text = readFileSync(join(tmp.dir, 'all', f), 'utf8');
      expect(text, f).not.toContain(SECRET_FOLDER);
      expect(text, f).not.toContain(ACCOUNT_PREFIX);
      expect(text, f).not.toContain(tmp.dir);
    }
  });

  it('local times follow the time zone across the daylight-saving change', () => {
    const offsets = new Set(recordings.records.map((x) => x['utc_offset']));
    expect(offsets).toEqual(new Set(['+01:00', '+02:00']));
    for (const x of recordings.records) {
      const utc = Date.parse(x['recorded_at_utc']!);
      const [h, m] = x['utc_offset']!.slice(1).split(':').map(Number) as [number, number];
      const local = Date.parse(`${x['recorded_at_local']!.replace(' ', 'T')}Z`);
      expect(local - Math.floor(utc / 1000) * 1000).toBe((h * 60 + m) * 60_000);
    }
  });

  /**
   * The summary recomputed here from the database with its own SQL and arithmetic: per participant,
   * measure and API version, the values of uploaded recordings by recording time (ties by id); the
   * baseline is the first k of them.
   */
  const checkSummary = (rowsOut: ParsedCsv, k: number) => {
    const points = summaryPoints;
    // Equal up to rounding relative to the size of the values (SDs of values near 1e8 differ by 1e-9 between one-pass and two-pass sums).
    let scale = 1;
    const close = (cell: string | undefined, expected: number, what: string) => {
      expect(cell, what).not.toBe('');
      expect(Math.abs(Number(cell) - expected), `${what}: ${cell} vs ${expected}`).toBeLessThanOrEqual(
        1e-12 * scale,
      );
    };
    const meanOf = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const sdOf = (xs: number[]) => {
      const m = meanOf(xs);
      return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1));
    };
    let expectedRows = 0,
      versionRows = 0,
      withSd = 0;
    for (const code of AWKWARD_CODES) {
      for (const m of MEASURES) {
        const mine = points.filter((x) => x.code === code && x.key === m.key);
        const rows = rowsOut.records.filter(
          (x) => unneutralise(x['participant']!) === code && x['measure'] === m.key,
        );
        const versions = [...new Set(mine.map((x) => x.version))].sort();
        if (versions.length === 0) {
          expectedRows++;
          expect(rows, `${code}/${m.key}`).toHaveLength(1);
          expect(rows[0]).toMatchObject({
            api_version: '',
            n: '0',
            baseline_n: '0',
            baseline_from_utc: '',
            baseline: '',
            baseline_category: '',
            latest_recording: '',
            change: '',
            mean: '',
            simulated: 'false',
          });
          continue;
        }
        expect(
          rows.map((x) => x['api_version']),
          `${code}/${m.key}`,
        ).toEqual(versions); // one row per version, in version order
        for (const version of versions) {
          expectedRows++;
          versionRows++;
          const what = `${code}/${m.key}/${version}/k=${k}`;
          const row = rows.find((x) => x['api_version'] === version)!;
          const series = mine.filter((x) => x.version === version);
          const base = series.slice(0, k);
          const last = series.at(-1)!;
          expect(row['analysis'], what).toBe(m.analysis);
          expect(Number(row['n']), what).toBe(series.length);
          expect(Number(row['baseline_n']), what).toBe(Math.min(k, series.length));
          expect(Date.parse(row['baseline_from_utc']!), what).toBe(Date.parse(base[0]!.at));
          expect(Date.parse(row['baseline_to_utc']!), what).toBe(Date.parse(base.at(-1)!.at));
          expect(row['baseline_from_local'], what).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
          expect(row['latest_recording'], what).toBe(String(last.recording));
          expect(Date.parse(row['latest_recorded_at_utc']!), what).toBe(Date.parse(last.at));
          expect(row['simulated'], what).toBe(String(series.some((x) => x.simulated === 1)));
          if (m.valueType === 'category') {
            expect(unneutralise(row['baseline_category']!), what).toBe(base[0]!.text);
            expect(unneutralise(row['latest_category']!), what).toBe(last.text);
            for (const c of [
              'baseline',
              'baseline_sd',
              'latest_value',
              'change',
              'change_in_sd',
              'mean',
              'sd',
            ])
              expect(row[c], `${what} ${c}`).toBe('');
            continue;
          }
          const xs = series.map((x) => x.num!);
          const bs = base.map((x) => x.num!);
          scale = Math.max(1, ...xs.map(Math.abs));
          expect(row['baseline_category'], what).toBe('');
          expect(num(row['latest_value']), what).toBe(last.num);
          close(row['mean'], meanOf(xs), `${what} mean`);
          if (xs.length >= 2) close(row['sd'], sdOf(xs), `${what} sd`);
          else expect(row['sd'], what).toBe('');
          if (xs.length < k) {
            // No baseline yet: never a baseline over fewer sessions, and no change.
            for (const c of ['baseline', 'baseline_sd', 'change', 'change_in_sd'])
              expect(row[c], `${what} ${c}`).toBe('');
            expect(row['change_verdict'], what).toBe('no_baseline_yet');
            continue;
          }
          close(row['baseline'], meanOf(bs), `${what} baseline`);
          if (bs.length >= 2) close(row['baseline_sd'], sdOf(bs), `${what} baseline_sd`);
          else expect(row['baseline_sd'], what).toBe('');
          if (xs.length > k) {
            const change = last.num! - meanOf(bs);
            close(row['change'], change, `${what} change`);
            if (row['sd_used'] !== '') {
              withSd++;
              // The SD floor: never below the participant's own SD.
              if (bs.length >= 2) expect(Number(row['sd_used']), what).toBeGreaterThanOrEqual(sdOf(bs));
              close(row['change_in_sd'], change / Number(row['sd_used']), `${what} change_in_sd`);
            } else expect(row['change_in_sd'], what).toBe('');
          } else {
            for (const c of ['change', 'change_in_sd']) expect(row[c], `${what} ${c}`).toBe('');
            expect(row['change_verdict'], what).toBe('no_session_after_baseline');
          }
        }
      }
    }
    expect(rowsOut.rows).toHaveLength(expectedRows);
    expect(versionRows).toBeGreaterThan(AWKWARD_CODES.length * 10); // both versions are really there
    return { withSd };
  };

  it('summary (k = 3, the default): one row per participant, measure and API version, recomputed from the database', () => {
    expect(report.request.baselineSessions).toBe(3);
    const { withSd } = checkSummary(summary, 3);
    // The awkward study has at most 3 sessions per version: baselines, but no session after them yet.
    expect(withSd).toBe(0);
    expect(
      summary.records.filter((x) => x['change_verdict'] === 'no_session_after_baseline').length,
    ).toBeGreaterThan(20);
    expect(summary.records.filter((x) => x['change_verdict'] === 'no_baseline_yet').length).toBeGreaterThan(
      0,
    );
    // A participant with values in both versions has two rows of the same measure, never one mixed row.
    expect(
      summary.records.filter((x) => x['measure'] === 'pd_hnr' && x['api_version'] === 'v1.2').length,
    ).toBeGreaterThan(0);
    expect(
      summary.records.filter((x) => x['measure'] === 'pd_hnr' && x['api_version'] === 'v1.3').length,
    ).toBeGreaterThan(0);
    expect(readFileSync(join(tmp.dir, 'all', 'codebook.md'), 'utf8')).toMatch(
      /\| Baseline sessions \(per-participant summary\) \| 3: /,
    );
  });

  it('summary with another k (1 and 2): the baseline is the first k values of each version', async () => {
    for (const k of [1, 2]) {
      const r = await mustExport(
        store,
        { forms: ['summary'], baselineSessions: k },
        { outDir: tmp.dir, folderName: `k${k}` },
      );
      expect(r.request.baselineSessions).toBe(k);
      const rows = readCsv(join(tmp.dir, `k${k}`, 'participant_summary.csv'));
      const { withSd } = checkSummary(rows, k);
      if (k === 2) expect(withSd).toBeGreaterThan(20);
      expect(rows.records.some((x) => Number(x['n']) > k && x['baseline'] !== '')).toBe(true);
      expect(
        JSON.parse(readFileSync(join(tmp.dir, `k${k}`, 'datapackage.json'), 'utf8')).voicescope.request
          .baselineSessions,
      ).toBe(k);
    }
  });

  it('neutralises formulas in text cells only, so spreadsheets show them as text', () => {
    const codes = new Set(long.records.map((x) => x['participant']));
    expect(codes).toContain(`'=HYPERLINK("http://x","click")`);
    expect(codes).toContain("'-5");
    expect(codes).toContain("'+plus");
    expect(codes).toContain("'@at");
    expect(codes).toContain("''apostrophe");
    expect(codes).toContain('NA');
    expect(codes).toContain('two\nlines');
    expect(long.records.some((x) => x['category']!.startsWith("'=cmd"))).toBe(true);
    for (const x of long.records) expect(x['value']).not.toMatch(/^'/);
  });
});
