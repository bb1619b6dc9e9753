/**
 * A study with results written straight into a database (for the participant page and the cohort view):
 * participants with attributes (arm, site) on weekly sessions, every measure of the catalogue valued on
 * each uploaded recording (a smooth course with noise, by arm), every tenth session converted and every
 * seventh with marginal speech; optionally one long-followed participant (200 sessions) for the chart
 * benchmark; each recording's analyses are completed. Nothing is sent anywhere: the profile is the simulated sandbox's, without a key.
 */
import { MEASURES } from '../../shared/api/measures';
import { openStudyDb, type Db } from '../../main/db/open';
import { openWorkspace } from '../../main/workspace/workspace';

export interface CohortStudy {
  readonly participants: number;
  readonly sessions: number;
  /** A participant with this many sessions (code P-LONG), or 0 for none. */
  readonly longSessions: number;
  readonly now: number;
}
export const COHORT_STUDY: CohortStudy = {
  participants: 12,
  sessions: 6,
  longSessions: 0,
  now: Date.UTC(2026, 5, 1),
};
const DAY = 86_400_000;

/** A deterministic number in [0, 1) from integers. */
const noise = (...xs: number[]) => {
  let h = 2166136261;
  for (const x of xs) h = Math.imul(h ^ x, 16777619) >>> 0;
  return (h % 10_000) / 10_000;
};

/** Seeds study `studyName` and returns its id and the participants' ids by code. */
export const seedCohortStudyDb = (
  db: Db,
  s: CohortStudy = COHORT_STUDY,
  studyName = 'Cohort study',
): { studyId: number; participants: Map<string, number> } => {
  const profileId = Number(
    db
      .prepare(
        `INSERT INTO service_profiles (name, base_url, api_version, is_sandbox, created_at) VALUES ('Seeded profile (simulated)', 'http://127.0.0.1:9', 'v1.3', 1, '2026-01-01T00:00:00Z')`,
      )
      .run().lastInsertRowid,
  );
  const studyId = Number(
    db
      .prepare(`INSERT INTO studies (name, profile_id, created_at) VALUES (?, ?, '2026-01-01T00:00:00Z')`)
      .run(studyName, profileId).lastInsertRowid,
  );
  const batchId = Number(
    db
      .prepare(
        `INSERT INTO batches (study_id, created_at, analyses, state, label) VALUES (?, '2026-01-01T00:00:00Z', '["wellbeing","parkinsons","alzheimers","communication_coach"]', 'finished', 'Seeded')`,
      )
      .run(studyId).lastInsertRowid,
  );
  const insP = db.prepare(
    `INSERT INTO participants (study_id, code, account_id, created_at) VALUES (?, ?, ?, '2026-01-01T00:00:00Z')`,
  );
  const insAttr = db.prepare(
    `INSERT INTO participant_attributes (participant_id, key, value, updated_at) VALUES (?, ?, ?, '2026-01-01T00:00:00Z')`,
  );
  const insR = db.prepare(
    `INSERT INTO recordings (study_id, participant_id, batch_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, session_label,
                             upload_state, verdict, recording_id, result_source, api_version, converted, svc_speech_seconds, created_at)
     VALUES (?, ?, ?, ?, ?, 1400000, ?, 'manifest', ?, 'uploaded', '{"status":"accepted","findings":[]}', ?, 'simulated', 'v1.3', ?, ?, '2026-01-01T00:00:00Z')`,
  );
  // Each recording's four analyses completed, as the sandbox would leave them (the participant's recency,
  // "last usable recording", is kept from these by the database's triggers).
  const insA = db.prepare(
    `INSERT INTO analyses (recording_id, type, state, requested_at, finished_at) VALUES (?, ?, 'completed', ?, ?)`,
  );
  const ANALYSES = ['wellbeing', 'parkinsons', 'alzheimers', 'communication_coach'] as const;
  const insV = db.prepare(
    `INSERT INTO measure_values (recording_id, measure_key, participant_id, recorded_at, value_num, value_text) VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const participants = new Map<string, number>();
  let n = 0;
  const addParticipant = (code: string, sessions: number, arm: string, site: string) => {
    const pid = Number(
      insP.run(studyId, code, `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`).lastInsertRowid,
    );
    participants.set(code, pid);
    insAttr.run(pid, 'arm', arm);
    insAttr.run(pid, 'site', site);
    for (let k = 0; k < sessions; k++) {
      const at = new Date(s.now - (sessions - k) * 7 * DAY + n * 3_600_000)
        .toISOString()
        .replace(/\.\d+Z$/, 'Z');
      const rid = Number(
        insR.run(
          studyId,
          pid,
          batchId,
          `/data/${code}/week-${k + 1}.wav`,
          `${code}-${k}`,
          at,
          `week ${k + 1}`,
          `00000000-0000-4000-9000-${String(n * 1000 + k).padStart(12, '0')}`,
          k % 10 === 2 ? 1 : 0,
          k % 7 === 4 ? 33.5 : 40,
        ).lastInsertRowid,
      );
      for (const type of ANALYSES) insA.run(rid, type, at, at);
      MEASURES.forEach((m, mi) => {
        if (m.valueType === 'category') {
          const levels = m.allowed ?? ['low', 'high'];
          insV.run(rid, m.key, pid, at, null, levels[Math.floor(noise(n, k, mi) * levels.length)]!);
          return;
        }
        const [lo, hi] = m.range ?? [0, 100];
        const trend = arm === 'active' ? 0.25 : 0.05;
        const v =
          lo + (hi - lo) * Math.min(0.95, 0.4 + (trend * k) / Math.max(1, sessions) + 0.2 * noise(n, k, mi));
        insV.run(rid, m.key, pid, at, m.valueType === 'integer' ? Math.round(v) : Number(v.toFixed(3)), null);
      });
    }
  };
  db.transaction(() => {
    for (let p = 1; p <= s.participants; p++)
      addParticipant(
        `P-${String(p).padStart(3, '0')}`,
        s.sessions,
        p % 2 === 0 ? 'active' : 'placebo',
        p % 3 === 0 ? 'Lyon' : 'Berlin',
      );
    if (s.longSessions > 0) addParticipant('P-LONG', s.longSessions, 'active', 'Berlin');
  })();
  return { studyId, participants };
};

/** The same in a workspace folder (for a node host to open, before or while it runs). */
export const seedCohortStudy = (
  workspaceDir: string,
  s: CohortStudy = COHORT_STUDY,
  studyName?: string,
): { studyId: number; participants: Map<string, number> } => {
  const { db } = openStudyDb(openWorkspace(workspaceDir).dbPath);
  try {
    return seedCohortStudyDb(db, s, studyName);
  } finally {
    db.close();
  }
};
