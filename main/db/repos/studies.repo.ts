/** Studies as the workstation lists them: counts, what needs the researcher, recency at a glance. */
import type { ApiVersion } from '../../../shared/api/vocabulary';
import type { StudyView } from '../../../shared/contract/studies.contract';
import type { StudySummary } from '../../../shared/study';
import type { Db } from '../open';
import { stmt } from '../statements';
import { STUDY_DISMISSED_ATTENTION } from './needs-you-dismissals.repo';

interface Row {
  id: number;
  name: string;
  profile_id: number | null;
  profile_name: string | null;
  api_version: ApiVersion | null;
  is_sandbox: number | null;
  interval: number;
  created_at: string;
  participants: number;
  recordings: number;
  completed: number;
  attention: number;
  last: string | null;
}

/** The study's view but its overdue count, which the schedule decides (main/design/recency.ts). */
export const studyViews = (
  db: Db,
  builtinProfiles: readonly number[],
  studyId?: number,
): Omit<StudyView, 'overdueParticipants'>[] => {
  // Per-study figures summed from each participant's own (kept by migration 0040's triggers): one
  // index range per study instead of a scan of every recording.
  const rows = stmt(
    db,
    `SELECT s.id, s.name, s.profile_id, sp.name AS profile_name, sp.api_version, sp.is_sandbox, s.session_interval_days AS interval, s.created_at,
            count(p.id) AS participants, coalesce(sum(p.rec_count), 0) AS recordings, coalesce(sum(p.rec_done), 0) AS completed,
            coalesce(sum(p.rec_attention), 0) - ${STUDY_DISMISSED_ATTENTION} AS attention, max(p.last_recording_at) AS last
     FROM studies s LEFT JOIN service_profiles sp ON sp.id = s.profile_id LEFT JOIN participants p ON p.study_id = s.id
     WHERE s.archived_at IS NULL AND (@id IS NULL OR s.id = @id)
     GROUP BY s.id
     ORDER BY s.name COLLATE NOCASE`,
  ).all({ id: studyId ?? null }) as Row[];
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    profileId: r.profile_id,
    profileName: r.profile_name,
    apiVersion: r.api_version,
    simulated: r.is_sandbox === 1 || (r.profile_id !== null && builtinProfiles.includes(r.profile_id)),
    sessionIntervalDays: r.interval,
    participants: r.participants,
    recordings: r.recordings,
    completedRecordings: r.completed,
    needsAttention: r.attention,
    lastRecordingAt: r.last,
    createdAt: r.created_at,
  }));
};

export const setStudyFields = (
  db: Db,
  studyId: number,
  f: { name?: string | undefined; sessionIntervalDays?: number | undefined },
): 'not_found' | 'name_taken' | true => {
  if (!stmt(db, `SELECT 1 FROM studies WHERE id = ?`).get(studyId)) return 'not_found';
  if (f.name !== undefined) {
    if (stmt(db, `SELECT 1 FROM studies WHERE name = ? AND id <> ?`).get(f.name, studyId))
      return 'name_taken';
    stmt(db, `UPDATE studies SET name = ? WHERE id = ?`).run(f.name, studyId);
  }
  if (f.sessionIntervalDays !== undefined)
    stmt(db, `UPDATE studies SET session_interval_days = ? WHERE id = ?`).run(f.sessionIntervalDays, studyId);
  return true;
};

/** A study with its participant and recording counts, as the command line and the import screens name it. */
export const studySummary = (db: Db, id: number): StudySummary | null => {
  const r = stmt(
    db,
    `SELECT s.id, s.name, s.profile_id, s.created_at,
              (SELECT count(*) FROM participants p WHERE p.study_id = s.id) AS participants,
              (SELECT count(*) FROM recordings r WHERE r.study_id = s.id) AS recordings
       FROM studies s WHERE s.id = ?`,
  ).get(id) as
    | {
        id: number;
        name: string;
        profile_id: number | null;
        created_at: string;
        participants: number;
        recordings: number;
      }
    | undefined;
  return r
    ? {
        id: r.id,
        name: r.name,
        profileId: r.profile_id,
        participants: r.participants,
        recordings: r.recordings,
        createdAt: r.created_at,
      }
    : null;
};

/** Studies not archived, by name. */
export const activeStudyIds = (db: Db): number[] =>
  (stmt(db, `SELECT id FROM studies WHERE archived_at IS NULL ORDER BY name`).all() as { id: number }[]).map(
    (r) => r.id,
  );

/** The study with this name, or this number. */
export const studyIdByNameOrId = (db: Db, nameOrId: string): number | null =>
  (
    stmt(db, `SELECT id FROM studies WHERE name = ? OR CAST(id AS TEXT) = ?`).get(nameOrId, nameOrId) as
      { id: number } | undefined
  )?.id ?? null;

export const studyNameTaken = (db: Db, name: string): boolean =>
  stmt(db, `SELECT 1 FROM studies WHERE name = ?`).get(name) !== undefined;

export const insertStudy = (db: Db, s: { name: string; profileId: number; createdAt: string }): number =>
  Number(
    stmt(db, `INSERT INTO studies (name, profile_id, created_at) VALUES (?, ?, ?)`).run(
      s.name,
      s.profileId,
      s.createdAt,
    ).lastInsertRowid,
  );

/** The study's service profile; null when the study does not exist or has none. */
export const studyProfileId = (db: Db, studyId: number): number | null =>
  (
    stmt(db, `SELECT profile_id FROM studies WHERE id = ?`).get(studyId) as
      { profile_id: number | null } | undefined
  )?.profile_id ?? null;

export const studyName = (db: Db, studyId: number): string | null =>
  (stmt(db, `SELECT name FROM studies WHERE id = ?`).get(studyId) as { name: string } | undefined)?.name ??
  null;
