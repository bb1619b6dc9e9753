/** What the export dialog offers for a study: its sessions, the time range, API versions and analysis types it holds. */
import type { AnalysisType, ApiVersion } from '../../../shared/api/vocabulary';
import type { Queryable } from '../store/types';

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

export const exportStudyRow = (q: Queryable, studyId: number): Promise<ExportStudyRow | undefined> =>
  q.get<ExportStudyRow>(
    `SELECT s.id, sp.is_sandbox, s.profile_id FROM studies s LEFT JOIN service_profiles sp ON sp.id = s.profile_id WHERE s.id = ?`,
    [studyId],
  );

export const exportFacts = async (q: Queryable, studyId: number): Promise<ExportFacts> => {
  const sessions = (
    await q.all<{ s: string }>(
      `SELECT DISTINCT ${q.dialect.binary('session_label')} AS s FROM recordings WHERE study_id = ? AND session_label IS NOT NULL ORDER BY 1 LIMIT 501`,
      [studyId],
    )
  ).map((r) => r.s);
  const range = (await q.get<{ first: string | null; last: string | null; n: number }>(
    `SELECT min(recorded_at) AS first, max(recorded_at) AS last, count(*) AS n FROM recordings r WHERE study_id = ? AND EXISTS (SELECT 1 FROM analyses a WHERE a.recording_id = r.id)`,
    [studyId],
  ))!;
  const versions = (
    await q.all<{ v: ApiVersion }>(
      `SELECT DISTINCT ${q.dialect.binary('api_version')} AS v FROM recordings WHERE study_id = ? AND api_version IS NOT NULL ORDER BY 1`,
      [studyId],
    )
  ).map((r) => r.v);
  const types = new Set(
    (
      await q.all<{ t: AnalysisType }>(
        `SELECT DISTINCT a.type AS t FROM analyses a JOIN recordings r ON r.id = a.recording_id WHERE r.study_id = ?`,
        [studyId],
      )
    ).map((r) => r.t),
  );
  const simulated =
    (await q.get(`SELECT 1 FROM recordings WHERE study_id = ? AND result_source = 'simulated' LIMIT 1`, [
      studyId,
    ])) !== undefined;
  const participants = (await q.get<{ n: number }>(
    `SELECT count(*) AS n FROM participants WHERE study_id = ?`,
    [studyId],
  ))!.n;
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
