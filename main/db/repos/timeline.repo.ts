/** What a participant's timeline is built from: their uploaded recordings (sessions) and stored measure values. */
import type { ApiVersion } from '../../../shared/api/vocabulary';
import type { VerdictView } from '../../../shared/study';
import type { Queryable } from '../store/types';
import { recordingVerdict } from './recording-columns';

export interface TimelineSessionRow {
  readonly id: number;
  readonly recorded_at: string;
  readonly session_label: string | null;
  readonly api_version: ApiVersion;
  readonly result_source: string | null;
  readonly converted: number;
  readonly svc_speech_seconds: number | null;
  readonly speech_estimate_seconds: number | null;
  readonly verdict: VerdictView | null;
  readonly isolate: number | null;
  readonly excluded_at: string | null;
  readonly excluded_reason: string | null;
}

export interface TimelineValueRow {
  readonly recording_id: number;
  readonly measure_key: string;
  readonly value_num: number | null;
  readonly value_text: string | null;
}

export const participantCodeById = (
  q: Queryable,
  participantId: number,
): Promise<{ id: number; code: string } | undefined> =>
  q.get<{ id: number; code: string }>(`SELECT id, code FROM participants WHERE id = ?`, [participantId]);

/**
 * The participant's uploaded recordings with an API version, in recording order; those excluded from
 * analysis (curation) too, with their reason, so the timeline can show them marked.
 */
export const timelineSessions = async (q: Queryable, participantId: number): Promise<TimelineSessionRow[]> =>
  (
    await q.all<Omit<TimelineSessionRow, 'verdict'> & { verdict: string | null }>(
      `SELECT r.id, r.recorded_at, r.session_label, r.api_version, r.result_source, r.converted, r.svc_speech_seconds, r.speech_estimate_seconds,
            r.verdict, b.isolate_oldest_speaker AS isolate, r.excluded_at, r.excluded_reason
     FROM recordings r LEFT JOIN batches b ON b.id = r.batch_id
     WHERE r.participant_id = ? AND r.upload_state = 'uploaded' AND r.api_version IS NOT NULL
     ORDER BY r.recorded_at, r.id`,
      [participantId],
    )
  ).map((row) => ({ ...row, verdict: recordingVerdict.decodeOrNull(row.verdict) }));

/** The participant's stored values, by measure (the index measure_timeline reads them in one range). */
export const timelineValues = (q: Queryable, participantId: number): Promise<TimelineValueRow[]> =>
  q.all<TimelineValueRow>(
    `SELECT recording_id, measure_key, value_num, value_text FROM measure_values WHERE participant_id = ? ORDER BY ${q.dialect.binary('measure_key')}, ${q.dialect.binary('recorded_at')}, recording_id`,
    [participantId],
  );

/** The stored values of the named measures only (the charts shown), from the same index range. */
export const timelineValuesOf = (
  q: Queryable,
  participantId: number,
  keys: readonly string[],
): Promise<TimelineValueRow[]> =>
  q.all<TimelineValueRow>(
    `SELECT recording_id, measure_key, value_num, value_text FROM measure_values
     WHERE participant_id = ? AND measure_key IN (${q.dialect.jsonValues('?', 'text')})
     ORDER BY ${q.dialect.binary('measure_key')}, ${q.dialect.binary('recorded_at')}, recording_id`,
    [participantId, JSON.stringify(keys)],
  );

/** The measures the participant has any value of (the index alone answers, no value is read). */
export const timelineMeasureKeys = async (q: Queryable, participantId: number): Promise<string[]> =>
  (
    await q.all<{ measure_key: string }>(
      `SELECT DISTINCT measure_key FROM measure_values WHERE participant_id = ?`,
      [participantId],
    )
  ).map((r) => r.measure_key);

/** The participant's local acoustic measures that have a value: recording, measure key, value. */
export const timelineLocalValues = (
  q: Queryable,
  participantId: number,
): Promise<{ recording_id: number; measure: string; value: number }[]> =>
  q.all<{ recording_id: number; measure: string; value: number }>(
    `SELECT lm.recording_id, lm.measure, lm.value FROM local_measures lm JOIN recordings r ON r.id = lm.recording_id
     WHERE r.participant_id = ? AND lm.value IS NOT NULL`,
    [participantId],
  );
