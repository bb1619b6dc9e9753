/**
 * The export's per-participant summary and the workstation's participant timeline (main/services/timeline.ts)
 * define the baseline once (shared/baseline.ts): for the same participant, measure, API version and k they
 * give the same baseline, baseline SD, change and change in SD, to the last bit. The study is seeded
 * through the schema with v1.2 and v1.3 sessions interleaved in time, ties in recording time, a measure
 * without spread in its baseline, categories, and a participant with a single session.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEASURES } from '../../../shared/api/measures';
import { analysisTypesFor, type ApiVersion } from '../../../shared/api/vocabulary';
import { openStudyDb } from '../../../main/db/open';
import { participantTimeline } from '../../../main/services/timeline';
import { mustExport, readCsv, tempDir, unneutralise } from './helpers';

const tmp = tempDir('vs-export-timeline-');
const dbPath = join(tmp.dir, 'study.sqlite');
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

beforeAll(() => {
  const { db } = openStudyDb(dbPath);
  db.prepare(
    `INSERT INTO service_profiles (id, name, base_url, api_version, is_sandbox, created_at) VALUES (1, 'sandbox', 'http://127.0.0.1:1', 'v1.3', 1, '2024-01-01T00:00:00.000Z')`,
  ).run();
  db.prepare(
    `INSERT INTO studies (id, name, profile_id, created_at) VALUES (1, 'Baselines', 1, '2024-01-01T00:00:00.000Z')`,
  ).run();
  db.prepare(
    `INSERT INTO batches (id, study_id, created_at, analyses, isolate_oldest_speaker, state) VALUES (1, 1, '2024-01-01T00:00:00.000Z', '[]', 0, 'finished')`,
  ).run();
  const insP = db.prepare(
    `INSERT INTO participants (study_id, code, created_at) VALUES (1, ?, '2024-01-01T00:00:00.000Z')`,
  );
  const insR = db.prepare(
    `INSERT INTO recordings (study_id, participant_id, batch_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, upload_state,
       recording_id, api_version, result_source, uploaded_at, created_at)
     VALUES (1, @pid, 1, @path, @sha, 1000, @at, 'manifest', 'uploaded', @rid, @version, @source, @at, '2024-01-01T00:00:00.000Z')`,
  );
  const insA = db.prepare(
    `INSERT INTO analyses (recording_id, type, state, requested_at, finished_at) VALUES (?, ?, 'completed', '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z')`,
  );
  const insV = db.prepare(
    `INSERT INTO measure_values (recording_id, measure_key, participant_id, recorded_at, value_num, value_text) VALUES (?, ?, ?, ?, ?, ?)`,
  );
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
  db.transaction(() => {
    for (const [code, versions] of plan) {
      const pid = Number(insP.run(code).lastInsertRowid);
      participants.push({ id: pid, code });
      versions.forEach((version, i) => {
        n++;
        const at = new Date(
          Date.UTC(2024, 0, 1) + (code === 'P-tie' && i === 3 ? 2 : i) * 7 * 86_400_000 + 1234,
        ).toISOString();
        const id = Number(
          insR.run({
            pid,
            path: `/x/${code}-${i}.wav`,
            sha: n.toString(16).padStart(64, '0'),
            at,
            rid: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
            version,
            source: i % 3 === 0 ? 'service' : 'simulated',
          }).lastInsertRowid,
        );
        for (const type of analysisTypesFor(version)) {
          insA.run(id, type);
          for (const m of MEASURES) {
            if (m.analysis !== type || m.path[version] === undefined) continue;
            const v = valueOf(m.key, code, i);
            if (v !== null)
              insV.run(
                id,
                m.key,
                pid,
                at,
                typeof v === 'number' ? v : null,
                typeof v === 'string' ? v : null,
              );
          }
        }
      });
    }
  })();
  db.close();
});
afterAll(() => tmp.cleanup());

describe('the export summary and the participant timeline', () => {
  for (const k of [1, 2, 3, 5, 20]) {
    it(`give the same baseline, baseline SD, change and change in SD per participant, measure and API version (k = ${k})`, async () => {
      await mustExport(
        dbPath,
        { forms: ['summary'], baselineSessions: k },
        { outDir: tmp.dir, folderName: `k${k}` },
      );
      const summary = readCsv(join(tmp.dir, `k${k}`, 'participant_summary.csv')).records;
      const { db } = openStudyDb(dbPath);
      try {
        let compared = 0,
          withChangeInSd = 0,
          zeroSpread = 0;
        for (const p of participants) {
          const tl = participantTimeline(db, p.id, k)!;
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
              if (s.baseline === null) {
                // A category: the timeline has no numeric baseline; the summary gives the first value.
                expect(typeof last.value, what).toBe('string');
                expect(row['baseline'], what).toBe('');
                expect(row['baseline_category'], what).toBe(s.points[0]!.value);
                expect(row['baseline_n'], what).toBe(String(Math.min(k, s.points.length)));
                expect([row['change'], row['change_in_sd'], s.change, s.changeInSd], what).toEqual([
                  '',
                  '',
                  null,
                  null,
                ]);
                continue;
              }
              expect(Number(row['baseline_n']), what).toBe(s.baseline.n);
              expect(Date.parse(row['baseline_from_utc']!), what).toBe(Date.parse(s.baseline.from));
              expect(Date.parse(row['baseline_to_utc']!), what).toBe(Date.parse(s.baseline.to));
              // Exact: the same doubles, written in their shortest round-trip form.
              expect(Number(row['baseline']), what).toBe(s.baseline.mean);
              expect(row['baseline_sd'] === '' ? null : Number(row['baseline_sd']), what).toBe(s.baseline.sd);
              expect(Number(row['latest_value']), what).toBe(s.latest!.value);
              if (s.points.length >= 2) {
                expect(Number(row['change']), what).toBe(s.change);
                expect(row['change_in_sd'] === '' ? null : Number(row['change_in_sd']), what).toBe(
                  s.changeInSd,
                );
                if (s.changeInSd !== null) withChangeInSd++;
                if (s.baseline.sd === 0) zeroSpread++;
              } else {
                // One session: the timeline's change is 0 (the latest is the baseline); the summary leaves it empty.
                expect(s.change, what).toBe(0);
                expect([row['change'], row['change_in_sd']], what).toEqual(['', '']);
              }
            }
          }
        }
        expect(compared).toBeGreaterThan(100);
        if (k >= 2) expect(withChangeInSd).toBeGreaterThan(20);
        if (k >= 2 && k <= 4) expect(zeroSpread).toBeGreaterThan(0); // P-flat's pd_hnr: baseline SD 0, no change in SD
      } finally {
        db.close();
      }
    });
  }
});
