/**
 * A large study written straight into a workspace's database, for benchmarks of the workstation's
 * tables: N participants and M recordings spread over them (weekly sessions), uploaded and analysed
 * (four analysis types each, completed), marked simulated. No audio and no measure values: the tables
 * do not read them.
 */
import { openStudyDb } from '../../main/db/open';
import { openWorkspace } from '../../main/services/workspace';
import { ANALYSIS_TYPES } from '../../shared/api/vocabulary';

export const seedLargeStudy = (workspaceDir: string, opts: { participants: number; recordings: number }): { studyId: number } => {
  const ws = openWorkspace(workspaceDir);
  const { db } = openStudyDb(ws.dbPath);
  try {
    db.prepare(`INSERT INTO service_profiles (id, name, base_url, api_version, is_sandbox, created_at) VALUES (1, 'Bench profile (simulated)', 'http://127.0.0.1:9', 'v1.3', 1, '2026-01-01T00:00:00Z')`).run();
    db.prepare(`INSERT INTO studies (id, name, profile_id, created_at) VALUES (1, 'Large study', 1, '2026-01-01T00:00:00Z')`).run();
    db.prepare(`INSERT INTO batches (id, study_id, created_at, analyses, state, label) VALUES (1, 1, '2026-01-01T00:00:00Z', ?, 'finished', 'Bench batch')`).run(JSON.stringify(ANALYSIS_TYPES));
    const insP = db.prepare(`INSERT INTO participants (id, study_id, code, account_id, created_at) VALUES (?, 1, ?, ?, '2026-01-01T00:00:00Z')`);
    db.transaction(() => {
      for (let p = 1; p <= opts.participants; p++) insP.run(p, `P-${String(p).padStart(5, '0')}`, `00000000-0000-4000-8000-${String(p).padStart(12, '0')}`);
    })();
    const insR = db.prepare(
      `INSERT INTO recordings (id, study_id, participant_id, batch_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, session_label,
                               upload_state, recording_id, api_version, result_source, created_at)
       VALUES (?, 1, ?, 1, ?, ?, 1400000, ?, 'manifest', ?, 'uploaded', ?, 'v1.3', 'simulated', '2026-01-01T00:00:00Z')`,
    );
    const insA = db.prepare(`INSERT INTO analyses (recording_id, type, state, requested_at, finished_at) VALUES (?, ?, 'completed', '2026-01-01T00:00:00Z', '2026-01-01T00:05:00Z')`);
    const t0 = Date.UTC(2025, 0, 6, 9);
    for (let from = 1; from <= opts.recordings; from += 10_000) {
      db.transaction(() => {
        for (let r = from; r < Math.min(from + 10_000, opts.recordings + 1); r++) {
          const p = ((r - 1) % opts.participants) + 1;
          const week = Math.floor((r - 1) / opts.participants);
          insR.run(r, p, `/data/study/P-${String(p).padStart(5, '0')}/week-${week + 1}.wav`, `h${r}`, new Date(t0 + week * 7 * 86_400_000 + p * 60_000).toISOString(), `week ${week + 1}`, `00000000-0000-4000-9000-${String(r).padStart(12, '0')}`);
          for (const t of ANALYSIS_TYPES) insA.run(r, t);
        }
      })();
    }
    return { studyId: 1 };
  } finally {
    db.close();
  }
};
