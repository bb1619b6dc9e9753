/** What a participant's timeline is built from: their uploaded recordings (sessions) and stored measure values. */
import type { ApiVersion } from '../../../shared/api/vocabulary';
import type { VerdictView } from '../../../shared/study';
import type { Db } from '../open';
import { stmt } from '../statements';
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
  db: Db,
  participantId: number,
): { id: number; code: string } | undefined =>
  stmt(db, `SELECT id, code FROM participants WHERE id = ?`).get(participantId) as
    { id: number; code: string } | undefined;

/**
 * The participant's uploaded recordings with an API version, in recording order; those excluded from
 * analysis (curation) too, with their reason, so the timeline can show them marked.
 */
export const timelineSessions = (db: Db, participantId: number): TimelineSessionRow[] =>
  stmt(
    db,
    `SELECT r.id, r.recorded_at, r.session_label, r.api_version, r.result_source, r.converted, r.svc_speech_seconds, r.speech_estimate_seconds,
            r.verdict, b.isolate_oldest_speaker AS isolate, r.excluded_at, r.excluded_reason
     FROM recordings r LEFT JOIN batches b ON b.id = r.batch_id
     WHERE r.participant_id = ? AND r.upload_state = 'uploaded' AND r.api_version IS NOT NULL
     ORDER BY r.recorded_at, r.id`,
  )
    .all(participantId)
    .map((r) => {
      const row = r as Omit<TimelineSessionRow, 'verdict'> & { verdict: string | null };
      return { ...row, verdict: recordingVerdict.decodeOrNull(row.verdict) };
    });

/** The participant's stored values, by measure (the index measure_timeline reads them in one range). */
export const timelineValues = (db: Db, participantId: number): TimelineValueRow[] =>
  stmt(
    db,
    `SELECT recording_id, measure_key, value_num, value_text FROM measure_values WHERE participant_id = ? ORDER BY measure_key, recorded_at, recording_id`,
  ).all(participantId) as TimelineValueRow[];

/** The stored values of the named measures only (the charts shown), from the same index range. */
export const timelineValuesOf = (
  db: Db,
  participantId: number,
  keys: readonly string[],
): TimelineValueRow[] =>
  stmt(
    db,
    `SELECT recording_id, measure_key, value_num, value_text FROM measure_values
     WHERE participant_id = ? AND measure_key IN (SELECT value FROM json_each(?))
     ORDER BY measure_key, recorded_at, recording_id`,
  ).all(participantId, JSON.stringify(keys)) as TimelineValueRow[];

/** The measures the participant has any value of (the index alone answers, no value is read). */
export const timelineMeasureKeys = (db: Db, participantId: number): string[] =>
  (
    stmt(db, `SELECT DISTINCT measure_key FROM measure_values WHERE participant_id = ?`).all(
      participantId,
    ) as {
      measure_key: string;
    }[]
  ).map((r) => r.measure_key);

/** The participant's local acoustic measures that have a value: recording, measure key, value. */
export const timelineLocalValues = (
  db: Db,
  participantId: number,
): { recording_id: number; measure: string; value: number }[] =>
  stmt(
    db,
    `SELECT lm.recording_id, lm.measure, lm.value FROM local_measures lm JOIN recordings r ON r.id = lm.recording_id
     WHERE r.participant_id = ? AND lm.value IS NOT NULL`,
  ).all(participantId) as { recording_id: number; measure: string; value: number }[];
