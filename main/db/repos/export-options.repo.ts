/** What the export dialog offers for a study: its sessions, the time range, API versions and analysis types it holds. */
import type { AnalysisType, ApiVersion } from '../../../shared/api/vocabulary';
import type { Db } from '../open';
import { stmt } from '../statements';

export interface ExportStudyRow {
  readonly id: number;
  readonly is_sandbox: number | null;
  readonly profile_id: number | null;
}

export interface ExportFacts {
  /** Session labels in order, at most `sessionLimit`. */
  readonly sessions: readonly string[];
  readonly firstRecordedAt: string | null;
  readonly lastRecordedAt: string | null;
  /** Recordings with at least one analysis. */
  readonly uploadedRecordings: number;
  readonly apiVersions: readonly ApiVersion[];
  readonly analyses: ReadonlySet<AnalysisType>;
  /** Some of the study's results came from the simulated service. */
  readonly hasSimulatedResults: boolean;
  readonly participants: number;
}

export const exportStudyRow = (db: Db, studyId: number): ExportStudyRow | undefined =>
  stmt(
    db,
    `SELECT s.id, sp.is_sandbox, s.profile_id FROM studies s LEFT JOIN service_profiles sp ON sp.id = s.profile_id WHERE s.id = ?`,
  ).get(studyId) as ExportStudyRow | undefined;

export const exportFacts = (db: Db, studyId: number): ExportFacts => {
  const sessions = (
    stmt(
      db,
      `SELECT DISTINCT session_label AS s FROM recordings WHERE study_id = ? AND session_label IS NOT NULL ORDER BY 1 LIMIT 501`,
    ).all(studyId) as { s: string }[]
  ).map((r) => r.s);
  const range = stmt(
    db,
    `SELECT min(recorded_at) AS first, max(recorded_at) AS last, count(*) AS n FROM recordings r WHERE study_id = ? AND EXISTS (SELECT 1 FROM analyses a WHERE a.recording_id = r.id)`,
  ).get(studyId) as { first: string | null; last: string | null; n: number };
  const versions = (
    stmt(
      db,
      `SELECT DISTINCT api_version AS v FROM recordings WHERE study_id = ? AND api_version IS NOT NULL ORDER BY 1`,
    ).all(studyId) as { v: ApiVersion }[]
  ).map((r) => r.v);
  const types = new Set(
    (
      stmt(
        db,
        `SELECT DISTINCT a.type AS t FROM analyses a JOIN recordings r ON r.id = a.recording_id WHERE r.study_id = ?`,
      ).all(studyId) as { t: AnalysisType }[]
    ).map((r) => r.t),
  );
  const simulated =
    stmt(db, `SELECT 1 FROM recordings WHERE study_id = ? AND result_source = 'simulated' LIMIT 1`).get(
      studyId,
    ) !== undefined;
  const participants = (
    stmt(db, `SELECT count(*) AS n FROM participants WHERE study_id = ?`).get(studyId) as { n: number }
  ).n;
  return {
    sessions,
    firstRecordedAt: range.first,
    lastRecordedAt: range.last,
    uploadedRecordings: range.n,
    apiVersions: versions,
    analyses: types,
    hasSimulatedResults: simulated,
    participants,
  };
};
