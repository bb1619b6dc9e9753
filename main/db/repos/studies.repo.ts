/** Studies as the workstation lists them: counts, what needs the researcher, recency at a glance. */
import type { ApiVersion } from '../../../shared/api/vocabulary';
import type { StudyView } from '../../../shared/contract/studies.contract';
import { overdueBefore } from '../../../shared/recency';
import type { Db } from '../open';
import { stmt } from '../statements';
import { ATTENTION_STATES } from './participants.repo';

interface Row {
  id: number; name: string; profile_id: number | null; profile_name: string | null; api_version: ApiVersion | null; is_sandbox: number | null;
  interval: number; created_at: string; participants: number; recordings: number; completed: number; attention: number; last: string | null;
}

export const studyViews = (db: Db, nowMs: number, builtinProfiles: readonly number[], studyId?: number): StudyView[] => {
  const rows = stmt(db,
    `SELECT s.id, s.name, s.profile_id, sp.name AS profile_name, sp.api_version, sp.is_sandbox, s.session_interval_days AS interval, s.created_at,
            (SELECT count(*) FROM participants p WHERE p.study_id = s.id) AS participants,
            (SELECT count(*) FROM recordings r WHERE r.study_id = s.id AND r.upload_state <> 'cancelled') AS recordings,
            (SELECT count(*) FROM recordings r WHERE r.study_id = s.id AND r.upload_state = 'uploaded' AND NOT EXISTS (
               SELECT 1 FROM analyses a WHERE a.recording_id = r.id AND a.state NOT IN ('completed', 'not_requested'))) AS completed,
            (SELECT count(*) FROM recordings r WHERE r.study_id = s.id AND r.upload_state IN ${ATTENTION_STATES}) AS attention,
            (SELECT max(recorded_at) FROM recordings r WHERE r.study_id = s.id AND r.upload_state <> 'cancelled') AS last
     FROM studies s LEFT JOIN service_profiles sp ON sp.id = s.profile_id
     WHERE s.archived_at IS NULL AND (@id IS NULL OR s.id = @id)
     ORDER BY s.name COLLATE NOCASE`,
  ).all({ id: studyId ?? null }) as Row[];
  const overdue = stmt(db,
    `SELECT count(*) AS n FROM (SELECT max(r.recorded_at) AS last FROM recordings r
       WHERE r.study_id = ? AND r.upload_state <> 'cancelled' GROUP BY r.participant_id) WHERE last < ?`,
  );
  return rows.map((r) => ({
    id: r.id, name: r.name, profileId: r.profile_id, profileName: r.profile_name, apiVersion: r.api_version,
    simulated: r.is_sandbox === 1 || (r.profile_id !== null && builtinProfiles.includes(r.profile_id)),
    sessionIntervalDays: r.interval, participants: r.participants, recordings: r.recordings, completedRecordings: r.completed,
    needsAttention: r.attention, overdueParticipants: (overdue.get(r.id, overdueBefore(r.interval, nowMs)) as { n: number }).n,
    lastRecordingAt: r.last, createdAt: r.created_at,
  }));
};

export const setStudyFields = (db: Db, studyId: number, f: { name?: string | undefined; sessionIntervalDays?: number | undefined }): 'not_found' | 'name_taken' | true => {
  if (!stmt(db, `SELECT 1 FROM studies WHERE id = ?`).get(studyId)) return 'not_found';
  if (f.name !== undefined) {
    if (stmt(db, `SELECT 1 FROM studies WHERE name = ? AND id <> ?`).get(f.name, studyId)) return 'name_taken';
    stmt(db, `UPDATE studies SET name = ? WHERE id = ?`).run(f.name, studyId);
  }
  if (f.sessionIntervalDays !== undefined) stmt(db, `UPDATE studies SET session_interval_days = ? WHERE id = ?`).run(f.sessionIntervalDays, studyId);
  return true;
};
