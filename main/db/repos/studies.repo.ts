/** Studies as the workstation lists them: counts, what needs the researcher, recency at a glance. */
import type { ApiVersion } from '../../../shared/api/vocabulary';
import type { StudyView } from '../../../shared/contract/studies.contract';
import type { StudySummary } from '../../../shared/study';
import { DEFAULT_SITE } from '../../../shared/team';
import type { Queryable } from '../store/types';
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
export const studyViews = async (
  q: Queryable,
  builtinProfiles: readonly number[],
  studyId?: number,
): Promise<Omit<StudyView, 'overdueParticipants'>[]> => {
  // Per-study figures summed from each participant's own (kept by migration 0040's triggers): one
  // index range per study instead of a scan of every recording.
  const id = studyId ?? null;
  const rows = await q.all<Row>(
    `SELECT s.id, s.name, s.profile_id, sp.name AS profile_name, sp.api_version, sp.is_sandbox, s.session_interval_days AS interval, s.created_at,
            count(p.id) AS participants, coalesce(sum(p.rec_count), 0) AS recordings, coalesce(sum(p.rec_done), 0) AS completed,
            coalesce(sum(p.rec_attention), 0) - ${STUDY_DISMISSED_ATTENTION} AS attention, max(p.last_recording_at) AS last
     FROM studies s LEFT JOIN service_profiles sp ON sp.id = s.profile_id LEFT JOIN participants p ON p.study_id = s.id
     WHERE s.archived_at IS NULL AND (${q.dialect.param('integer')} IS NULL OR s.id = ?)
     GROUP BY s.id, sp.id
     ORDER BY ${q.dialect.nocase('s.name')}`,
    [id, id],
  );
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

export const setStudyFields = async (
  q: Queryable,
  studyId: number,
  f: { name?: string | undefined; sessionIntervalDays?: number | undefined },
): Promise<'not_found' | 'name_taken' | true> => {
  if (!(await q.get(`SELECT 1 FROM studies WHERE id = ?`, [studyId]))) return 'not_found';
  if (f.name !== undefined) {
    if (await q.get(`SELECT 1 FROM studies WHERE name = ? AND id <> ?`, [f.name, studyId]))
      return 'name_taken';
    await q.run(`UPDATE studies SET name = ? WHERE id = ?`, [f.name, studyId]);
  }
  if (f.sessionIntervalDays !== undefined)
    await q.run(`UPDATE studies SET session_interval_days = ? WHERE id = ?`, [
      f.sessionIntervalDays,
      studyId,
    ]);
  return true;
};

/** A study with its participant and recording counts, as the command line and the import screens name it. */
export const studySummary = async (q: Queryable, id: number): Promise<StudySummary | null> => {
  const r = await q.get<{
    id: number;
    name: string;
    profile_id: number | null;
    created_at: string;
    participants: number;
    recordings: number;
  }>(
    `SELECT s.id, s.name, s.profile_id, s.created_at,
              (SELECT count(*) FROM participants p WHERE p.study_id = s.id) AS participants,
              (SELECT count(*) FROM recordings r WHERE r.study_id = s.id) AS recordings
       FROM studies s WHERE s.id = ?`,
    [id],
  );
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
export const activeStudyIds = async (q: Queryable): Promise<number[]> =>
  (
    await q.all<{ id: number }>(
      `SELECT id FROM studies WHERE archived_at IS NULL ORDER BY ${q.dialect.binary('name')}`,
    )
  ).map((r) => r.id);

/** The study with this name, or this number. */
export const studyIdByNameOrId = async (q: Queryable, nameOrId: string): Promise<number | null> =>
  (
    await q.get<{ id: number }>(`SELECT id FROM studies WHERE name = ? OR CAST(id AS TEXT) = ?`, [
      nameOrId,
      nameOrId,
    ])
  )?.id ?? null;

export const studyNameTaken = async (q: Queryable, name: string): Promise<boolean> =>
  (await q.get(`SELECT 1 FROM studies WHERE name = ?`, [name])) !== undefined;

export const insertStudy = async (
  q: Queryable,
  s: { name: string; profileId: number; createdAt: string },
): Promise<number> => {
  const r = await q.get<{ id: number }>(
    `INSERT INTO studies (name, profile_id, created_at) VALUES (?, ?, ?) RETURNING id`,
    [s.name, s.profileId, s.createdAt],
  );
  const studyId = Number(r!.id);
  await q.run(`INSERT INTO study_sites (study_id, code, name, created_at) VALUES (?, ?, ?, ?)`, [
    studyId,
    DEFAULT_SITE.code,
    DEFAULT_SITE.name,
    s.createdAt,
  ]);
  return studyId;
};

/** The study's service profile; null when the study does not exist or has none. */
export const studyProfileId = async (q: Queryable, studyId: number): Promise<number | null> =>
  (await q.get<{ profile_id: number | null }>(`SELECT profile_id FROM studies WHERE id = ?`, [studyId]))
    ?.profile_id ?? null;

export const studyName = async (q: Queryable, studyId: number): Promise<string | null> =>
  (await q.get<{ name: string }>(`SELECT name FROM studies WHERE id = ?`, [studyId]))?.name ?? null;
