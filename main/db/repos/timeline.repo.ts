/** What a participant's timeline is built from: their uploaded recordings (sessions) and stored measure values. */
import type { ApiVersion } from '../../../shared/api/vocabulary';
import type { Db } from '../open';
import { stmt } from '../statements';

export interface TimelineSessionRow {
  readonly id: number;
  readonly recorded_at: string;
  readonly session_label: string | null;
  readonly api_version: ApiVersion;
  readonly result_source: string | null;
  readonly converted: number;
  readonly svc_speech_seconds: number | null;
  readonly speech_estimate_seconds: number | null;
  readonly verdict: string | null;
  readonly isolate: number | null;
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

/** The participant's uploaded recordings with an API version, not excluded from analysis, in recording order. */
export const timelineSessions = (db: Db, participantId: number): TimelineSessionRow[] =>
  stmt(
    db,
    `SELECT r.id, r.recorded_at, r.session_label, r.api_version, r.result_source, r.converted, r.svc_speech_seconds, r.speech_estimate_seconds,
            r.verdict, b.isolate_oldest_speaker AS isolate
     FROM recordings r LEFT JOIN batches b ON b.id = r.batch_id
     WHERE r.participant_id = ? AND r.upload_state = 'uploaded' AND r.api_version IS NOT NULL AND r.excluded_at IS NULL
     ORDER BY r.recorded_at, r.id`,
  ).all(participantId) as TimelineSessionRow[];

/** The participant's stored values, by measure (the index measure_timeline reads them in one range). */
export const timelineValues = (db: Db, participantId: number): TimelineValueRow[] =>
  stmt(
    db,
    `SELECT recording_id, measure_key, value_num, value_text FROM measure_values WHERE participant_id = ? ORDER BY measure_key, recorded_at, recording_id`,
  ).all(participantId) as TimelineValueRow[];
