/**
 * The export's per-participant summary and the workstation's participant timeline (main/change/timeline.ts)
 * define the baseline and the change statistics once (shared/baseline.ts, shared/change.ts): for the same
 * participant, measure, API version and k they give the same baseline (or "no baseline yet"), change,
 * floored change in SD, reliable change index and trend, to the last bit. The study is seeded
 * through the schema with v1.2 and v1.3 sessions interleaved in time, ties in recording time, a measure
 * without spread in its baseline, categories, and a participant with a single session.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEASURES } from '../../../shared/api/measures';
import { analysisTypesFor, type ApiVersion } from '../../../shared/api/vocabulary';
import { participantTimeline } from '../../../main/change/timeline';
import type { Queryable, Store } from '../../../main/db/store/types';
import { insertedId } from '../../support/inserted-id';
import { mustExport, openExportStore, seedFinishedBatch, readCsv, tempDir, unneutralise } from './helpers';

const tmp = tempDir('vs-export-timeline-');
const participants: { id: number; code: string }[] = [];

/** Deterministic values; pd_hnr of P-flat never changes over its first sessions (baseline SD 0). */
const valueOf = (key: string, code: string, i: number): number | string | null => {
  const m = MEASURES.find((x) => x.key === key)!;
  if ((i * 7 + key.length) % 13 === 0) return null; // omitted by the service
  if (m.valueType === 'category')
    return m.allowed ? m.allowed[(i + key.length) % m.allowed.length]! : ['low', 'medium', 'high'][i % 3]!;
  if (code === 'P-flat' && key === 'pd_hnr') return i < 4 ? 17.5 : 21;
  if (m.valueType === 'integer') return (i * 37 + key.length * 11) % 101;
  return ((i * 131 + key.length * 17) % 997) / 7 + (key === 'pd_articulation' ? 123456789 : 0);
};

let store: Store;

const seedStudy = async (q: Queryable) => {
  const batch = await seedFinishedBatch(q, 'Baselines');
  let n = 0;
  // code → sessions (API version of each, in time order); P-tie's 3rd and 4th sessions share one instant.
  const plan: [string, ApiVersion[]][] = [
    [
      'P-both',
      [
        'v1.2',
        'v1.2',
        'v1.3',
        'v1.2',
        'v1.3',
        'v1.2',
        'v1.3',
        'v1.3',
        'v1.2',
        'v1.3',
        'v1.3',
        'v1.2',
        'v1.3',
        'v1.3',
      ],
    ],
    ['P-flat', ['v1.3', 'v1.3', 'v1.3', 'v1.3', 'v1.3', 'v1.3', 'v1.2']],
    ['P-tie', ['v1.3', 'v1.3', 'v1.3', 'v1.3', 'v1.3', 'v1.3']],
    ['P-once', ['v1.2']],
  ];
  for (const [code, versions] of plan) {
    const pid = await insertedId(
      q,
      `INSERT INTO participants (study_id, code, created_at) VALUES (1, ?, '2024-01-01T00:00:00.000Z')`,
      [code],
    );
    participants.push({ id: pid, code });
    for (const [i, version] of versions.entries()) {
      n++;
      const at = new Date(
        Date.UTC(2024, 0, 1) + (code === 'P-tie' && i === 3 ? 2 : i) * 7 * 86_400_000 + 1234,
      ).toISOString();
      const id = await insertedId(
        q,
        `INSERT INTO recordings (study_id, participant_id, batch_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, upload_state,
           recording_id, api_version, result_source, uploaded_at, created_at)
         VALUES (1, ?, ?, ?, ?, 1000, ?, 'manifest', 'uploaded', ?, ?, ?, ?, '2024-01-01T00:00:00.000Z')`,
        [
          pid,
          batch,
          `/x/${code}-${i}.wav`,
          n.toString(16).padStart(64, '0'),
          at,
          `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
          version,
          i % 3 === 0 ? 'service' : 'simulated',
          at,
        ],
      );
      for (const type of analysisTypesFor(version)) {
        await q.run(
          `INSERT INTO analyses (recording_id, type, state, requested_at, finished_at) VALUES (?, ?, 'completed', '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z')`,
          [id, type],
        );
        for (const m of MEASURES) {
          if (m.analysis !== type || m.path[version] === undefined) continue;
          const v = valueOf(m.key, code, i);
          if (v !== null)
            await q.run(
              `INSERT INTO measure_values (recording_id, measure_key, participant_id, recorded_at, value_num, value_text) VALUES (?, ?, ?, ?, ?, ?)`,
              [id, m.key, pid, at, typeof v === 'number' ? v : null, typeof v === 'string' ? v : null],
            );
        }
      }
    }
  }
};

beforeAll(async () => {
  store = await openExportStore(tmp.dir);
  await store.transaction(seedStudy);
});
afterAll(async () => {
  await store.close();
  tmp.cleanup();
});

describe('the export summary and the participant timeline', () => {
  for (const k of [1, 2, 3, 5, 20]) {
    it(`give the same baseline, baseline SD, change and change in SD per participant, measure and API version (k = ${k})`, async () => {
      await mustExport(
        store,
        { forms: ['summary'], baselineSessions: k },
        { outDir: tmp.dir, folderName: `k${k}` },
      );
      const summary = readCsv(join(tmp.dir, `k${k}`, 'participant_summary.csv')).records;
      let compared = 0,
        withChangeInSd = 0,
        withRci = 0,
        noBaseline = 0,
        zeroSpread = 0;
      for (const p of participants) {
        const tl = (await participantTimeline(store, p.id, k))!;
        const mine = summary.filter((x) => unneutralise(x['participant']!) === p.code && x['n'] !== '0');
        expect(mine.length, p.code).toBe(tl.measures.reduce((a, m) => a + m.series.length, 0)); // one row per timeline series, no more
        for (const m of tl.measures) {
          for (const s of m.series) {
            const what = `${p.code}/${m.key}/${s.apiVersion}/k=${k}`;
            const row = mine.find((x) => x['measure'] === m.key && x['api_version'] === s.apiVersion)!;
            expect(row, what).toBeDefined();
            compared++;
            expect(Number(row['n']), what).toBe(s.points.length);
            const last = s.points.at(-1)!;
            expect(row['latest_recording'], what).toBe(String(last.recordingId));
            if (typeof last.value === 'string') {
              // A category: the timeline has no numeric baseline; the summary gives the first value.
              expect(row['baseline'], what).toBe('');
              expect(row['baseline_category'], what).toBe(s.points[0]!.value);
              expect(row['baseline_n'], what).toBe(String(Math.min(k, s.points.length)));
              expect([row['change'], row['change_in_sd'], row['change_verdict'], s.change], what).toEqual([
                '',
                '',
                '',
                null,
              ]);
              continue;
            }
            const num = (name: string) => (row[name] === '' ? null : Number(row[name]));
            expect(Number(row['baseline_n']), what).toBe(s.baselinePresent);
            expect(Number(row['latest_value']), what).toBe(s.latest!.value);
            const c = s.change!;
            expect(row['change_verdict'], what).toBe(c.verdict);
            if (s.baseline === null) {
              // Fewer than k sessions: no baseline yet, and no figure in either.
              noBaseline++;
              expect(s.points.length, what).toBeLessThan(k);
              expect([row['baseline'], row['baseline_sd'], row['change'], row['change_in_sd']], what).toEqual(
                ['', '', '', ''],
              );
              continue;
            }
            expect(Date.parse(row['baseline_from_utc']!), what).toBe(Date.parse(s.baseline.from));
            expect(Date.parse(row['baseline_to_utc']!), what).toBe(Date.parse(s.baseline.to));
            // Exact: the same doubles, written in their shortest round-trip form.
            expect(Number(row['baseline']), what).toBe(s.baseline.mean);
            expect(num('baseline_sd'), what).toBe(s.baseline.sd);
            expect(num('change'), what).toBe(c.change);
            expect(num('change_in_sd'), what).toBe(c.changeInSd);
            expect(num('sd_cohort_within'), what).toBe(c.sdCohortWithin);
            expect(num('sd_used'), what).toBe(c.sdUsed);
            expect(row['sd_source'] || null, what).toBe(c.sdSource);
            expect(num('reliability'), what).toBe(c.reliability);
            expect(num('rci_sd'), what).toBe(c.rciSd);
            expect(num('rci'), what).toBe(c.rci);
            expect(num('trend_per_week'), what).toBe(c.trendPerWeek);
            if (c.changeInSd !== null) withChangeInSd++;
            if (c.rci !== null) withRci++;
            if (s.baseline.sd === 0 && c.change !== null) zeroSpread++;
          }
        }
      }
      expect(compared).toBeGreaterThan(100);
      if (k >= 2 && k <= 5) expect(withChangeInSd).toBeGreaterThan(20);
      if (k >= 2 && k <= 5) expect(withRci).toBeGreaterThan(10);
      if (k >= 2) expect(noBaseline).toBeGreaterThan(0); // P-once always, and every series shorter than k
      if (k >= 2 && k <= 4) expect(zeroSpread).toBeGreaterThan(0); // P-flat's pd_hnr: own SD 0, the cohort floor used
    });
  }
});
