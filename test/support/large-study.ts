/**
 * A large study written straight into a database, for benchmarks of the queries and tables of the
 * workstation: N participants (a tenth never recorded, every seventh without an account) and M
 * recordings interleaved over them in weekly sessions, the last ones spread over the past two months
 * (some participants overdue), in 10 batches and in the mix of states a real study has (mostly
 * completed; some processing, timed out or failed; refused, rejected, uncertain, duplicates, queued),
 * each uploaded one with its four analysis rows. No audio and no measure values: tables do not read them.
 */
import { ANALYSIS_TYPES } from '../../shared/api/vocabulary';
import { openStudyDb, type Db } from '../../main/db/open';
import { openWorkspace } from '../../main/workspace/workspace';

export interface LargeStudy {
  readonly participants: number;
  readonly recordings: number;
  readonly now: number;
}
export const LARGE_STUDY: LargeStudy = {
  participants: 10_000,
  recordings: 100_000,
  now: Date.UTC(2026, 5, 1),
};
const BATCHES = 10;
const DAY = 86_400_000;

/** The upload state and the analyses' state of recording r: a deterministic mix. */
const stateOf = (r: number, total: number): { upload: string; analyses: string | null } => {
  if (r % 97 === 0) return { upload: 'refused_locally', analyses: null };
  if (r % 251 === 0) return { upload: 'rejected', analyses: null };
  if (r % 499 === 0) return { upload: 'upload_uncertain', analyses: null };
  if (r % 211 === 0) return { upload: 'duplicate', analyses: null };
  if (r > total - 300) return { upload: 'queued', analyses: null };
  if (r % 53 === 0) return { upload: 'uploaded', analyses: 'processing' };
  if (r % 401 === 0) return { upload: 'uploaded', analyses: 'timed_out' };
  if (r % 307 === 0) return { upload: 'uploaded', analyses: 'error' };
  return { upload: 'uploaded', analyses: 'completed' };
};

/** Seeds study 1 (sessions expected every 7 days) on profile 1 (marked simulated, no key: nothing is sent). */
export const seedLargeStudyDb = (db: Db, s: LargeStudy = LARGE_STUDY): void => {
  db.prepare(
    `INSERT INTO service_profiles (id, name, base_url, api_version, is_sandbox, created_at) VALUES (1, 'Bench profile (simulated)', 'http://127.0.0.1:9', 'v1.3', 1, '2026-01-01T00:00:00Z')`,
  ).run();
  db.prepare(
    `INSERT INTO studies (id, name, profile_id, created_at) VALUES (1, 'Large study', 1, '2026-01-01T00:00:00Z')`,
  ).run();
  const insB = db.prepare(
    `INSERT INTO batches (id, study_id, created_at, analyses, state, label) VALUES (?, 1, '2026-01-01T00:00:00Z', ?, 'finished', ?)`,
  );
  const insP = db.prepare(
    `INSERT INTO participants (id, study_id, code, account_id, created_at) VALUES (?, 1, ?, ?, ?)`,
  );
  db.transaction(() => {
    for (let b = 1; b <= BATCHES; b++) insB.run(b, JSON.stringify(ANALYSIS_TYPES), `Batch ${b}`);
    for (let p = 1; p <= s.participants; p++) {
      insP.run(
        p,
        `P-${String(p).padStart(5, '0')}`,
        p % 7 === 0 ? null : `00000000-0000-4000-8000-${String(p).padStart(12, '0')}`,
        new Date(s.now - (s.participants - p) * 60_000).toISOString(),
      );
    }
  })();
  const recorders = Array.from({ length: s.participants }, (_, i) => i + 1).filter((p) => p % 10 !== 0);
  const weeks = Math.ceil(s.recordings / recorders.length);
  const insR = db.prepare(
    `INSERT INTO recordings (id, study_id, participant_id, batch_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, session_label,
                             upload_state, verdict, upload_error, recording_id, result_source, api_version, created_at)
     VALUES (?, 1, ?, ?, ?, ?, 1400000, ?, 'manifest', ?, ?, '{"status":"accepted","findings":[]}', ?, ?, ?, ?, '2026-01-01T00:00:00Z')`,
  );
  const insA = db.prepare(
    `INSERT INTO analyses (recording_id, type, state, requested_at) VALUES (?, ?, ?, '2026-01-01T00:00:00Z')`,
  );
  for (let from = 1; from <= s.recordings; from += 10_000) {
    db.transaction(() => {
      for (let r = from; r < Math.min(from + 10_000, s.recordings + 1); r++) {
        const p = recorders[(r * 7919) % recorders.length]!; // interleaved, not in id order
        const week = Math.floor((r - 1) / recorders.length);
        const at = s.now - ((p * 13) % 60) * DAY - (weeks - 1 - week) * 7 * DAY;
        const st = stateOf(r, s.recordings);
        const uploaded = st.upload === 'uploaded';
        const error =
          st.upload === 'rejected'
            ? JSON.stringify({ reason: 'The file can no longer be read.' })
            : st.upload === 'upload_uncertain'
              ? JSON.stringify({ reason: 'No answer.', error: null })
              : null;
        insR.run(
          r,
          p,
          Math.ceil(r / (s.recordings / BATCHES)),
          `/data/study/week-${week + 1}/P-${String(p).padStart(5, '0')}_${r}.wav`,
          `h${r}`,
          new Date(at).toISOString(),
          `week ${week + 1}`,
          st.upload,
          error,
          uploaded ? `00000000-0000-4000-9000-${String(r).padStart(12, '0')}` : null,
          uploaded ? 'simulated' : null,
          uploaded ? 'v1.3' : null,
        );
        if (st.analyses)
          for (const t of ANALYSIS_TYPES)
            insA.run(r, t, t === 'wellbeing' && st.analyses !== 'completed' ? 'completed' : st.analyses);
      }
    })();
  }
};

/** The same study in a workspace folder (for a node host to open). */
export const seedLargeStudy = (workspaceDir: string, s: LargeStudy = LARGE_STUDY): void => {
  const { db } = openStudyDb(openWorkspace(workspaceDir).dbPath);
  try {
    seedLargeStudyDb(db, s);
  } finally {
    db.close();
  }
};
