/**
 * The write-ahead upload protocol. The intent to upload is committed before the request is sent, and
 * each outcome is committed with its event in one transaction:
 *
 *   queued ──beginUpload──▶ uploading ──accepted──▶ uploaded (analyses start processing)
 *                                     ──rejected──▶ rejected (nothing charged; may be queued again)
 *                                     ──uncertain─▶ upload_uncertain (the researcher decides)
 *
 * A row still `uploading` when the application starts was interrupted (crash, kill, power loss) after
 * its intent was written: the request may have reached the service, so it becomes `upload_uncertain`
 * and is never re-sent on its own.
 */
import type { ApiError } from '../../../shared/api/api-error';
import type { RecordingReceipt } from '../../../shared/api/domain';
import type { AnalysisType } from '../../../shared/api/vocabulary';
import type { Db } from '../open';
import { stmt } from '../statements';
import { appendEvent } from './event-log.repo';

export interface UploadIntent {
  readonly recordingId: number;
  readonly contentSha256: string;
  readonly accountId: string;
  readonly analyses: readonly AnalysisType[];
  readonly isolateOldestSpeaker: boolean;
}

const studyOf = (db: Db, recordingId: number): number =>
  (stmt(db, `SELECT study_id FROM recordings WHERE id = ?`).get(recordingId) as { study_id: number })
    .study_id;

/**
 * Commits the intent. Returns false (and changes nothing) unless the recording is `queued` and its
 * batch still running: a file picked just before the researcher paused or cancelled is not sent.
 */
export const beginUpload = (db: Db, at: string, intent: UploadIntent): boolean =>
  db
    .transaction(() => {
      const changed = stmt(
        db,
        `UPDATE recordings SET upload_state = 'uploading', upload_intent_at = ?, upload_attempts = upload_attempts + 1
       WHERE id = ? AND upload_state = 'queued'
         AND EXISTS (SELECT 1 FROM batches b WHERE b.id = recordings.batch_id AND b.state = 'running')`,
      ).run(at, intent.recordingId).changes;
      if (changed !== 1) return false;
      appendEvent(
        db,
        at,
        'upload_intent',
        { studyId: studyOf(db, intent.recordingId), recordingId: intent.recordingId },
        {
          sha256: intent.contentSha256,
          account_id: intent.accountId,
          analyses: intent.analyses,
          isolate_oldest_speaker: intent.isolateOldestSpeaker,
        },
      );
      return true;
    })
    .immediate();

export const recordAccepted = (
  db: Db,
  at: string,
  recordingId: number,
  receipt: RecordingReceipt,
  analyses: readonly AnalysisType[],
  firstPollAt: string,
): void =>
  db
    .transaction(() => {
      stmt(
        db,
        `UPDATE recordings SET upload_state = 'uploaded', upload_error = NULL, recording_id = ?, api_version = ?, result_source = ?,
         uploaded_at = ?, svc_format = ?, svc_size_bytes = ?, svc_sample_rate_hz = ?, svc_bit_rate_bps = ?,
         svc_duration_seconds = ?, svc_speech_seconds = ?
       WHERE id = ? AND upload_state IN ('uploading', 'upload_uncertain')`,
      ).run(
        receipt.recordingId,
        receipt.apiVersion,
        receipt.source,
        receipt.uploadedAt ?? at,
        receipt.audio.format,
        receipt.audio.sizeBytes,
        receipt.audio.sampleRateHz,
        receipt.audio.bitRateBps,
        receipt.audio.durationSeconds,
        receipt.audio.speechDurationSeconds,
        recordingId,
      );
      const insert = stmt(
        db,
        `INSERT INTO analyses (recording_id, type, state, requested_at, next_poll_at) VALUES (?, ?, 'processing', ?, ?)
       ON CONFLICT (recording_id, type) DO UPDATE SET state = 'processing', next_poll_at = excluded.next_poll_at`,
      );
      for (const type of analyses) insert.run(recordingId, type, at, firstPollAt);
      appendEvent(
        db,
        at,
        'upload_accepted',
        { studyId: studyOf(db, recordingId), recordingId },
        { recording_id: receipt.recordingId, source: receipt.source },
      );
    })
    .immediate();

export const recordRejected = (db: Db, at: string, recordingId: number, error: ApiError): void =>
  db
    .transaction(() => {
      stmt(
        db,
        `UPDATE recordings SET upload_state = 'rejected', upload_error = ? WHERE id = ? AND upload_state = 'uploading'`,
      ).run(JSON.stringify(error), recordingId);
      appendEvent(
        db,
        at,
        'upload_rejected',
        { studyId: studyOf(db, recordingId), recordingId },
        { kind: error.kind, status: error.status, type: error.serviceType },
      );
    })
    .immediate();

export const recordUncertain = (
  db: Db,
  at: string,
  recordingId: number,
  error: ApiError | null,
  reason: string,
): void =>
  db
    .transaction(() => {
      stmt(
        db,
        `UPDATE recordings SET upload_state = 'upload_uncertain', upload_error = ? WHERE id = ? AND upload_state = 'uploading'`,
      ).run(JSON.stringify({ reason, error }), recordingId);
      appendEvent(
        db,
        at,
        'upload_uncertain',
        { studyId: studyOf(db, recordingId), recordingId },
        { reason, kind: error?.kind ?? null },
      );
    })
    .immediate();

/** On start: every upload interrupted after its intent was written becomes uncertain. Returns their ids. */
export const recoverInterruptedUploads = (db: Db, at: string): number[] =>
  db
    .transaction(() => {
      const rows = stmt(db, `SELECT id, study_id FROM recordings WHERE upload_state = 'uploading'`).all() as {
        id: number;
        study_id: number;
      }[];
      const mark = stmt(
        db,
        `UPDATE recordings SET upload_state = 'upload_uncertain', upload_error = ? WHERE id = ?`,
      );
      const reason = 'Voicescope stopped while this upload was being sent; the service may have received it.';
      for (const r of rows) {
        mark.run(JSON.stringify({ reason, error: null }), r.id);
        appendEvent(db, at, 'upload_interrupted', { studyId: r.study_id, recordingId: r.id }, { reason });
      }
      return rows.map((r) => r.id);
    })
    .immediate();

/**
 * The researcher's decision on an uncertain upload: send it again (possibly charged twice), give it up,
 * or record that it reached the service anyway (found there by other means): not sent again either way.
 */
export const resolveUncertain = (
  db: Db,
  recordingId: number,
  decision: 'queue_again' | 'cancel' | 'mark_uploaded_elsewhere',
): boolean =>
  stmt(
    db,
    `UPDATE recordings SET upload_state = ?, upload_error = json_set(coalesce(upload_error, '{}'), '$.resolution', ?)
            WHERE id = ? AND upload_state = 'upload_uncertain'`,
  ).run(decision === 'queue_again' ? 'queued' : 'cancelled', decision, recordingId).changes === 1;
