/**
 * Study database on a study of 100,000 recordings with every measure (about 3.7 million values):
 * the rate of storing poll results through the real storeAnalysis path, and the participant timeline
 * queries the UI and exports need.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MEASURES } from '../../shared/api/measures';
import type { RecordingAnalysis } from '../../shared/api/domain';
import { ANALYSIS_TYPES } from '../../shared/api/vocabulary';
import { openStudyDb } from '../../main/db/open';
import { storeAnalysis } from '../../main/db/repos/results.repo';
import { sqliteStore } from '../../main/db/store/sqlite-store';

const RECORDINGS = 100_000;
const PARTICIPANTS = 1_000;
const valueFor = (key: string, i: number): number | string => {
  const m = MEASURES.find((x) => x.key === key)!;
  return m.valueType === 'category' ? (m.allowed?.[i % (m.allowed.length || 1)] ?? 'low') : (i % 97) + 0.5;
};

export const benchDb = async (): Promise<string[]> => {
  const dir = mkdtempSync(join(tmpdir(), 'vs-dbbench-'));
  const path = join(dir, 'study.sqlite');
  const { db } = openStudyDb(path);
  const store = sqliteStore(db);
  try {
    db.prepare(
      `INSERT INTO service_profiles (id, name, base_url, api_version, created_at) VALUES (1, 'p', 'http://x', 'v1.3', 'now')`,
    ).run();
    db.prepare(`INSERT INTO studies (id, name, profile_id, created_at) VALUES (1, 's', 1, 'now')`).run();
    const insP = db.prepare(
      `INSERT INTO participants (id, study_id, code, account_id, created_at) VALUES (?, 1, ?, ?, 'now')`,
    );
    db.transaction(() => {
      for (let p = 1; p <= PARTICIPANTS; p++) insP.run(p, `P-${p}`, `acc-${p}`);
    })();
    const insR = db.prepare(
      `INSERT INTO recordings (id, study_id, participant_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, upload_state, recording_id, api_version, created_at)
       VALUES (?, 1, ?, ?, ?, 1000, ?, 'manifest', 'uploaded', ?, 'v1.3', 'now')`,
    );
    const insA = db.prepare(
      `INSERT INTO analyses (recording_id, type, state, requested_at, next_poll_at) VALUES (?, ?, 'processing', 'now', 'now')`,
    );
    const t0 = Date.UTC(2024, 0, 1);
    const seed = (from: number, to: number) =>
      db.transaction(() => {
        for (let r = from; r <= to; r++) {
          insR.run(
            r,
            ((r - 1) % PARTICIPANTS) + 1,
            `/data/${r}.wav`,
            `h${r}`,
            new Date(t0 + r * 3_600_000).toISOString(),
            `rec-${r}`,
          );
          for (const t of ANALYSIS_TYPES) insA.run(r, t);
        }
      })();
    const tSeed = performance.now();
    for (let r = 1; r <= RECORDINGS; r += 10_000) seed(r, r + 9_999);
    const seedMs = performance.now() - tSeed;

    const result = (r: number): RecordingAnalysis => ({
      apiVersion: 'v1.3',
      recordingId: `rec-${r}`,
      accountId: 'a',
      recordedAt: 'x',
      uploadedAt: null,
      audio: {
        format: 'wav',
        sizeBytes: 1,
        sampleRateHz: 16000,
        bitRateBps: 256000,
        durationSeconds: 60,
        speechDurationSeconds: 45,
      },
      source: 'simulated',
      outcomes: ANALYSIS_TYPES.map((type) => ({
        type,
        status: 'completed',
        values: Object.fromEntries(
          MEASURES.filter((m) => m.analysis === type).map((m) => [m.key, valueFor(m.key, r)]),
        ),
      })),
    });
    // The real path: one transaction per polled recording, as the poller stores them.
    const tStore = performance.now();
    for (let r = 1; r <= RECORDINGS; r++) await storeAnalysis(store, 'now', r, result(r), null);
    const storeMs = performance.now() - tStore;
    const values = (db.prepare(`SELECT count(*) n FROM measure_values`).get() as { n: number }).n;

    const timeline = db.prepare(
      `SELECT recorded_at, value_num FROM measure_values WHERE participant_id = ? AND measure_key = ? ORDER BY recorded_at`,
    );
    const allOfOne = db.prepare(
      `SELECT measure_key, recorded_at, value_num, value_text FROM measure_values WHERE participant_id = ? ORDER BY measure_key, recorded_at`,
    );
    const times = (fn: (i: number) => unknown, n: number) => {
      const xs: number[] = [];
      for (let i = 0; i < n; i++) {
        const t = performance.now();
        fn(i);
        xs.push(performance.now() - t);
      }
      xs.sort((a, b) => a - b);
      return `p50 ${xs[Math.floor(n / 2)]!.toFixed(3)} ms, p95 ${xs[Math.floor(n * 0.95)]!.toFixed(3)} ms`;
    };
    const one = times((i) => timeline.all(((i * 37) % PARTICIPANTS) + 1, 'pd_hnr'), 500);
    const all = times((i) => allOfOne.all(((i * 37) % PARTICIPANTS) + 1), 200);
    return [
      `study: ${RECORDINGS.toLocaleString('en')} recordings of ${PARTICIPANTS} participants, ${values.toLocaleString('en')} measure values, file ${(statSync(path).size / 1e6).toFixed(0)} MB (WAL, synchronous=NORMAL)`,
      `  seeding recordings and analysis rows: ${(seedMs / 1000).toFixed(1)} s`,
      `  storing poll results (storeAnalysis, one transaction per recording): ${(RECORDINGS / (storeMs / 1000)).toFixed(0)} recordings/s = ${(values / (storeMs / 1000)).toFixed(0)} values/s`,
      `  timeline of one measure for one participant (100 points): ${one}`,
      `  every measure of one participant (${(values / PARTICIPANTS).toFixed(0)} values): ${all}`,
    ];
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
};
