/**
 * The database side of archiving a study: the study's row with its profile, a consistent online backup
 * of the whole database (SQLite's backup API, page by page while the engine keeps writing), and the
 * trimming of that copy down to the one study.
 */
import Database from 'better-sqlite3';
import type { Db } from '../open';
import type { Queryable } from '../store/types';

export interface ArchivedStudyRow {
  readonly id: number;
  readonly name: string;
  readonly created_at: string;
  readonly session_interval_days: number;
  readonly profile_id: number | null;
  readonly profile_name: string | null;
  readonly base_url: string | null;
  readonly api_version: string | null;
  readonly is_sandbox: number | null;
}

export const archivedStudyRow = (q: Queryable, studyId: number): Promise<ArchivedStudyRow | undefined> =>
  q.get<ArchivedStudyRow>(
    `SELECT s.id, s.name, s.created_at, s.session_interval_days, s.profile_id, sp.name AS profile_name, sp.base_url, sp.api_version, sp.is_sandbox
     FROM studies s LEFT JOIN service_profiles sp ON sp.id = s.profile_id WHERE s.id = ?`,
    [studyId],
  );

/**
 * A consistent copy of the whole database, written to `file` while the connection stays in use:
 * SQLite's online backup of the study file, through its own handle (a file operation, not a query).
 */
export const backupDatabase = async (db: Db, file: string): Promise<void> => {
  await db.backup(file);
};

/**
 * Keeps only `studyId` in the copy at `file`: other studies, their events and audit entries and the
 * profiles no study of the copy uses are removed, key references cleared, the file vacuumed and checked.
 * The append-only triggers are lifted for this, then put back as they were. Returns the copy's counts.
 */
export const trimCopyToStudy = (
  file: string,
  studyId: number,
): { participants: number; recordings: number } => {
  const copy = new Database(file);
  try {
    copy.pragma('journal_mode = DELETE');
    copy.pragma('foreign_keys = ON');
    const triggers = copy
      .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%_no_delete'`)
      .all() as { name: string; sql: string }[];
    copy.transaction(() => {
      for (const t of triggers) copy.exec(`DROP TRIGGER "${t.name.replace(/"/g, '""')}"`);
      copy.prepare(`DELETE FROM studies WHERE id <> ?`).run(studyId);
      copy.prepare(`DELETE FROM event_log WHERE study_id IS NOT NULL AND study_id <> ?`).run(studyId);
      copy.prepare(`DELETE FROM audit_log WHERE study_id IS NOT NULL AND study_id <> ?`).run(studyId);
      copy
        .prepare(
          `DELETE FROM service_profiles WHERE id NOT IN (SELECT profile_id FROM studies WHERE profile_id IS NOT NULL)`,
        )
        .run();
      copy.prepare(`UPDATE service_profiles SET key_ref = NULL`).run();
      for (const t of triggers) copy.exec(t.sql);
    })();
    copy.exec('VACUUM');
    const check = copy.pragma('integrity_check', { simple: true });
    if (check !== 'ok')
      throw new Error(`the archived copy failed SQLite's integrity check: ${String(check)}`);
    const count = (sql: string) => (copy.prepare(sql).get() as { n: number }).n;
    return {
      participants: count(`SELECT count(*) AS n FROM participants`),
      recordings: count(`SELECT count(*) AS n FROM recordings`),
    };
  } finally {
    copy.close();
  }
};
