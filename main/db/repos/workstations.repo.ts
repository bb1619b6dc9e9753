/**
 * The workstations working on a study database and the files each holds (migration 200). Times are the
 * database's clock (`dialect.nowText`), so machines whose clocks differ still agree on who is away.
 */
import { UPLOAD_STATES_IN_FLIGHT } from '../../../shared/states';
import { sqlWords } from '../sql-words';
import type { Queryable } from '../store/types';

/** Registers the workstation (or says it is here again): its login and last-seen time are refreshed. */
export const touchWorkstation = async (q: Queryable, name: string): Promise<void> => {
  const d = q.dialect;
  await q.run(
    `INSERT INTO workstations (name, login, first_seen_at, last_seen_at) VALUES (?, ${d.currentLogin}, ${d.nowText}, ${d.nowText})
     ON CONFLICT (name) DO UPDATE SET login = excluded.login, last_seen_at = excluded.last_seen_at`,
    [name],
  );
};

/** The workstation (registered if it was not) holds the recording's file: the path and SHA-256 it found. */
export const recordHolding = async (
  q: Queryable,
  h: { recordingId: number; workstation: string; path: string; sha256: string },
): Promise<void> => {
  await touchWorkstation(q, h.workstation);
  await q.run(
    `INSERT INTO recording_files (recording_id, workstation, path, sha256, checked_at) VALUES (?, ?, ?, ?, ${q.dialect.nowText})
     ON CONFLICT (recording_id, workstation) DO UPDATE SET path = excluded.path, sha256 = excluded.sha256, checked_at = excluded.checked_at`,
    [h.recordingId, h.workstation, h.path, h.sha256],
  );
};

/** The importing workstation holds every file of the batch it just wrote (inside the import's transaction). */
export const recordBatchHoldings = async (
  q: Queryable,
  batchId: number,
  workstation: string,
): Promise<void> => {
  await touchWorkstation(q, workstation);
  await q.run(
    `INSERT INTO recording_files (recording_id, workstation, path, sha256, checked_at)
     SELECT id, ?, source_path, content_sha256, ${q.dialect.nowText} FROM recordings WHERE batch_id = ?`,
    [workstation, batchId],
  );
};

export interface UncheckedFile {
  readonly recordingId: number;
  readonly path: string;
  readonly sizeBytes: number;
  readonly sha256: string;
}

/**
 * Queued recordings of running batches on this profile that only other workstations hold, sent as
 * they were imported (a converted copy lives in its importer's workspace): this workstation may hold
 * the same file at the same path (a shared drive), which it checks before it would send one. `exclude`:
 * those it looked for lately.
 */
export const filesHeldElsewhere = async (
  q: Queryable,
  profileId: number,
  workstation: string,
  limit: number,
  exclude: readonly number[] = [],
): Promise<UncheckedFile[]> =>
  q.all<UncheckedFile>(
    `SELECT r.id AS "recordingId", r.source_path AS path, r.size_bytes AS "sizeBytes", r.content_sha256 AS sha256
     FROM recordings r JOIN batches b ON b.id = r.batch_id JOIN studies s ON s.id = r.study_id
     WHERE s.profile_id = ? AND b.state = 'running' AND r.upload_state = 'queued' AND r.upload_path IS NULL
       AND EXISTS (SELECT 1 FROM recording_files f WHERE f.recording_id = r.id)
       AND NOT EXISTS (SELECT 1 FROM recording_files f WHERE f.recording_id = r.id AND f.workstation = ?)
       AND r.id NOT IN (${q.dialect.jsonValues('?', 'integer')})
     ORDER BY r.id LIMIT ?`,
    [profileId, workstation, JSON.stringify(exclude), limit],
  );

export interface AbsentHolder {
  readonly workstation: string;
  readonly login: string | null;
  readonly lastSeenAt: string;
  /** Recordings of the study waiting to be sent whose file only this (away) workstation holds. */
  readonly waiting: number;
}

/**
 * Workstations away (not seen for `awaySeconds`) that alone hold files of the study's recordings still
 * waiting to be sent (queued, or pending an account): no running workstation can send those.
 */
export const absentHolders = async (
  q: Queryable,
  studyId: number,
  awaySeconds: number,
): Promise<AbsentHolder[]> => {
  const d = q.dialect;
  const here = `${d.secondsBetween('w.last_seen_at', d.nowText)} <= ?`;
  return q.all<AbsentHolder>(
    `SELECT w.name AS workstation, w.login, w.last_seen_at AS "lastSeenAt", count(*) AS waiting
     FROM recordings r JOIN recording_files f ON f.recording_id = r.id JOIN workstations w ON w.name = f.workstation
     WHERE r.study_id = ? AND r.upload_state IN ('queued', 'pending') AND NOT (${here})
       AND ${heldByNoneHere(d)}
     GROUP BY w.name, w.login, w.last_seen_at ORDER BY w.name`,
    [studyId, awaySeconds, awaySeconds],
  );
};

export interface WorkstationActivity {
  readonly name: string;
  readonly login: string | null;
  readonly lastSeenAt: string;
  /** 1 when seen within `hereSeconds` (by the database's clock), else 0. */
  readonly here: number;
  /** The study's recordings whose file it holds that are still waiting to be sent (queued, or pending an account). */
  readonly waiting: number;
  /** The study's recordings it has claimed and is sending now. */
  readonly sending: number;
}

/** Every workstation on the study database, with what it holds of the study and what it sends now. */
export const workstationActivity = async (
  q: Queryable,
  studyId: number,
  hereSeconds: number,
): Promise<WorkstationActivity[]> => {
  const d = q.dialect;
  return q.all<WorkstationActivity>(
    `SELECT w.name, w.login, w.last_seen_at AS "lastSeenAt",
       CASE WHEN ${d.secondsBetween('w.last_seen_at', d.nowText)} <= ? THEN 1 ELSE 0 END AS here,
       (SELECT count(*) FROM recording_files f JOIN recordings r ON r.id = f.recording_id
         WHERE f.workstation = w.name AND r.study_id = ? AND r.upload_state IN ('queued', 'pending')) AS waiting,
       (SELECT count(*) FROM recordings r
         WHERE r.claimed_by = w.name AND r.study_id = ? AND r.upload_state = 'uploading') AS sending
     FROM workstations w ORDER BY w.name`,
    [hereSeconds, studyId, studyId],
  );
};

/** No workstation seen within the `?` seconds holds recording `r`'s file. */
const heldByNoneHere = (d: Queryable['dialect']) =>
  `NOT EXISTS (SELECT 1 FROM recording_files g JOIN workstations h ON h.name = g.workstation
               WHERE g.recording_id = r.id AND ${d.secondsBetween('h.last_seen_at', d.nowText)} <= ?)`;

/**
 * Whether the study has work some present workstation can do (what the engine's idle check waits for,
 * main/db/repos/queue.repo.ts `pendingWork`, less the uploads only away workstations can send): an
 * upload queued or in flight on a running batch whose file a workstation seen within `awaySeconds` holds (or that no workstation
 * is recorded as holding: a single-user study), or an analysis the service is still processing.
 */
export const workForPresentWorkstations = async (
  q: Queryable,
  studyId: number,
  awaySeconds: number,
): Promise<boolean> => {
  const d = q.dialect;
  const r = await q.get<{ left: number }>(
    `SELECT ${d.flag(`EXISTS (SELECT 1 FROM recordings r JOIN batches b ON b.id = r.batch_id
                        WHERE r.study_id = ? AND b.state = 'running'
                          AND r.upload_state IN ${sqlWords(UPLOAD_STATES_IN_FLIGHT)}
                          AND NOT (EXISTS (SELECT 1 FROM recording_files f WHERE f.recording_id = r.id) AND ${heldByNoneHere(d)}))
                      OR EXISTS (SELECT 1 FROM analyses a JOIN recordings r ON r.id = a.recording_id
                                 WHERE r.study_id = ? AND a.state = 'processing')`)} AS left`,
    [studyId, awaySeconds, studyId],
  );
  return r!.left !== 0;
};
