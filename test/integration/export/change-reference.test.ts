/**
 * A reference check of the change statistics: a small simulated study (weekly sessions, participants
 * with 1 to 9 sessions, a baseline with almost no spread, v1.2 and v1.3 results, refused files, a study
 * reliability for one indicator and one score, k = 3) is exported, and pandas recomputes every figure of
 * participant_summary.csv from measures_long.csv and recordings.csv alone, by the rule as docs/change.md
 * states it: baseline only with k sessions, change only after it, SD floored by the cohort's pooled
 * within-person SD, RCI = change / (√2 · SD₁ · √(1 − r)), |RCI| ≥ 1.96 reliable, least-squares trend per
 * week. Every figure must agree within 1e-9 (relative to its size, at least 1).
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { MEASURES } from '../../../shared/api/measures';
import { analysisTypesFor, type ApiVersion } from '../../../shared/api/vocabulary';
import { reliabilityOf } from '../../../shared/reliability';
import { setStudyReliability } from '../../../main/db/repos/change.repo';
import type { Queryable, Store } from '../../../main/db/store/types';
import { insertedId } from '../../support/inserted-id';
import { mustExport, openExportStore, seedFinishedBatch, tempDir } from './helpers';
import { itWithTool } from '../../support/reference-tools';

const PYTHON = '/usr/bin/python3';

const tmp = tempDir('vs-change-ref-');
const STUDY_R = new Map([
  ['pd_hnr', 0.7],
  ['pd_risk_score', 0.8],
]);

/** A small deterministic generator (mulberry32). */
const rng = (seed: number) => () => {
  seed |= 0;
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

let store: Store;

const seedStudy = async (q: Queryable) => {
  const rand = rng(15);
  const batch = await seedFinishedBatch(q, 'Change');
  let n = 0;
  for (let p = 1; p <= 14; p++) {
    const code = `P-${String(p).padStart(2, '0')}`;
    const pid = await insertedId(
      q,
      `INSERT INTO participants (study_id, code, created_at) VALUES (1, ?, '2024-01-01T00:00:00.000Z')`,
      [code],
    );
    const sessions = 1 + ((p * 5) % 9); // 1 to 9 sessions
    const level = 10 + 20 * rand();
    for (let i = 0; i < sessions; i++) {
      n++;
      // Weekly, with a whole number of seconds of jitter; every 7th file refused locally (not uploaded).
      const at = new Date(
        Date.UTC(2024, 0, 1) + i * 7 * 86_400_000 + Math.floor(rand() * 36_000) * 1000,
      ).toISOString();
      const refused = n % 7 === 0;
      const version: ApiVersion = p % 5 === 0 && i >= 4 ? 'v1.2' : 'v1.3';
      const id = await insertedId(
        q,
        `INSERT INTO recordings (study_id, participant_id, batch_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, upload_state,
           recording_id, api_version, result_source, uploaded_at, created_at)
         VALUES (1, ?, ?, ?, ?, 1000, ?, 'manifest', ?, ?, ?, 'simulated', ?, '2024-01-01T00:00:00.000Z')`,
        [
          pid,
          batch,
          `/x/${code}-${i}.wav`,
          n.toString(16).padStart(64, '0'),
          at,
          refused ? 'refused_locally' : 'uploaded',
          refused ? null : `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
          refused ? null : version,
          refused ? null : at,
        ],
      );
      if (refused) continue;
      for (const type of analysisTypesFor(version)) {
        await q.run(
          `INSERT INTO analyses (recording_id, type, state, requested_at, finished_at) VALUES (?, ?, 'completed', '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z')`,
          [id, type],
        );
        for (const m of MEASURES) {
          if (m.analysis !== type || m.path[version] === undefined) continue;
          let v: number | string;
          if (m.valueType === 'category') v = m.allowed ? m.allowed[(i + p) % m.allowed.length]! : 'low';
          else if (p === 3 && m.key === 'pd_hnr')
            v = i < 3 ? 17.5 + i * 1e-3 : 12; // almost no spread in the baseline
          else {
            const x = level + (m.key.length % 7) * 3 + rand() * 4 + (i >= 3 ? [0, 30, -25][p % 3]! : 0);
            v = m.valueType === 'integer' ? Math.round(x) : x;
          }
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
  for (const [measureKey, r] of STUDY_R)
    await setStudyReliability(store, 1, { measureKey, r, note: 'test', at: '2024-01-01T00:00:00.000Z' });
});
afterAll(async () => {
  await store.close();
  tmp.cleanup();
});

/** The reference computation, in Python beside the other reference scripts. */
const REFERENCE = join(import.meta.dirname, '../../reference/change_reference.py');

describe('change statistics against a pandas reference computation', () => {
  itWithTool(
    'pandas',
    'agree with pandas on every figure of participant_summary.csv, recomputed from the exported values',
    async () => {
      const folder = join(tmp.dir, 'export');
      await mustExport(store, {}, { outDir: tmp.dir, folderName: 'export' });
      const rel = Object.fromEntries(
        MEASURES.filter((m) => m.valueType !== 'category').flatMap((m) => {
          const r = reliabilityOf(m.key, STUDY_R);
          return r ? [[m.key, r.r]] : [];
        }),
      );
      writeFileSync(join(folder, 'reliability.json'), JSON.stringify(rel));
      const r = spawnSync(PYTHON, [REFERENCE, '3'], {
        cwd: folder,
        encoding: 'utf8',
        env: { ...process.env, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' },
      });
      expect(r.stderr).toBe('');
      const out = JSON.parse(r.stdout) as {
        compared: number;
        counts: Record<string, number>;
        bad: unknown[];
        nbad: number;
        missing: unknown[];
      };
      expect(out.bad).toEqual([]);
      expect(out.missing).toEqual([]);
      expect(out.compared).toBeGreaterThan(200);
      // The study exercises every verdict the rule can give.
      for (const v of [
        'no_baseline_yet',
        'no_session_after_baseline',
        'not_reliable',
        'reliable_increase',
        'reliable_decrease',
        'trend_only',
      ])
        expect(out.counts[v] ?? 0, v).toBeGreaterThan(0);
      console.log(
        `change reference check: ${out.compared} series compared; verdicts ${JSON.stringify(out.counts)}`,
      );
    },
    120_000,
  );
});
