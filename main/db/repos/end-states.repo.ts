/**
 * Where each recording of a study stands, as one word: what `voicescope status` counts, and what
 * `voicescope wait` reads to choose its exit code. An uploaded recording is `processing` while any of
 * its analyses is, then `timed_out` (re-checked slowly), `unanswered`, `failed` (an analysis error), or
 * `completed`, in that order of precedence; any other recording is in its upload state.
 */
import { ANALYSIS_STATES_UNDER_WAY } from '../../../shared/states';
import { sqlWords } from '../sql-words';
import type { Queryable } from '../store/types';

export const RECORDING_END_STATES = ['completed', 'failed', 'timed_out', 'unanswered'] as const;

/** Recordings of the study (or one batch) per state. */
export const recordingStateCounts = async (
  q: Queryable,
  studyId: number,
  batchId?: number,
): Promise<Record<string, number>> => {
  const rows = await q.all<{ state: string; n: number }>(
    `SELECT CASE
              WHEN r.upload_state <> 'uploaded' THEN r.upload_state
              WHEN EXISTS (SELECT 1 FROM analyses a WHERE a.recording_id = r.id AND a.state IN ${sqlWords(ANALYSIS_STATES_UNDER_WAY)}) THEN 'processing'
              WHEN EXISTS (SELECT 1 FROM analyses a WHERE a.recording_id = r.id AND a.state = 'timed_out') THEN 'timed_out'
              WHEN EXISTS (SELECT 1 FROM analyses a WHERE a.recording_id = r.id AND a.state = 'unanswered') THEN 'unanswered'
              WHEN EXISTS (SELECT 1 FROM analyses a WHERE a.recording_id = r.id AND a.state = 'error') THEN 'failed'
              ELSE 'completed'
            END AS state, count(*) AS n
     FROM recordings r WHERE r.study_id = ? AND (${q.dialect.param('integer')} IS NULL OR r.batch_id = ?)
     GROUP BY 1 ORDER BY 1`,
    [studyId, batchId ?? null, batchId ?? null],
  );
  return Object.fromEntries(rows.map((r) => [r.state, r.n]));
};

/** Recordings of the study still waiting for their participant's account (nothing of them was sent). */
export const pendingWithoutAccountCount = async (q: Queryable, studyId: number): Promise<number> =>
  (await q.get<{ n: number }>(
    `SELECT count(*) AS n FROM recordings r JOIN participants p ON p.id = r.participant_id
       WHERE r.study_id = ? AND r.upload_state = 'pending' AND p.account_id IS NULL`,
    [studyId],
  ))!.n;

/** The study's unanswered recordings (terminal, no next poll): what "one more check" can ask again. */
export const unansweredRecordingIds = async (q: Queryable, studyId: number): Promise<number[]> =>
  (
    await q.all<{ id: number }>(
      `SELECT DISTINCT a.recording_id AS id FROM analyses a JOIN recordings r ON r.id = a.recording_id
       WHERE r.study_id = ? AND a.state = 'unanswered' ORDER BY 1`,
      [studyId],
    )
  ).map((r) => r.id);
