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
import type { DataQualityFlag } from '../../../shared/api/data-quality';
import type { RecordingReceipt } from '../../../shared/api/domain';
import type { AnalysisType } from '../../../shared/api/vocabulary';
import type { StoredUploadError } from '../../../shared/recording-problems';
import type { Db } from '../open';
import { stmt } from '../statements';
import { reopenBatchesOf } from './batches.repo';
import { replaceFlags } from './data-quality.repo';
import { appendEvent, appendUnreadableAnswer } from './event-log.repo';
import { batchAnalyses, recordingUploadError } from './recording-columns';

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

/**
 * The upload was accepted: the receipt's facts as received (a fraction or an unsafe integer in an audio
 * fact is kept, flagged), the receipt's own flags and `checks`, its differences from what was sent
 * (shared/api/receipt-check.ts), and the analyses now processing, in one transaction.
 */
export const recordAccepted = (
  db: Db,
  at: string,
  recordingId: number,
  receipt: RecordingReceipt,
  analyses: readonly AnalysisType[],
  firstPollAt: string,
  checks: readonly DataQualityFlag[] = [],
): void =>
  db
    .transaction(() => {
      stmt(
        db,
        `UPDATE recordings SET upload_state = 'uploaded', upload_error = NULL, recording_id = ?, api_version = ?, result_source = ?,
         uploaded_at = ?, accepted_at = ?, svc_format = ?, svc_size_bytes = ?, svc_sample_rate_hz = ?, svc_bit_rate_bps = ?,
         svc_duration_seconds = ?, svc_speech_seconds = ?
       WHERE id = ? AND upload_state IN ('uploading', 'upload_uncertain')`,
      ).run(
        receipt.recordingId,
        receipt.apiVersion,
        receipt.source,
        receipt.uploadedAt ?? at,
        at, // the workstation's clock: the poll schedule counts from here, whatever the service's clock says
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
      replaceFlags(db, at, recordingId, 'receipt', null, receipt.flags ?? []);
      replaceFlags(db, at, recordingId, 'receipt_check', null, checks);
      appendEvent(
        db,
        at,
        'upload_accepted',
        { studyId: studyOf(db, recordingId), recordingId },
        {
          recording_id: receipt.recordingId,
          source: receipt.source,
          flags: [...(receipt.flags ?? []), ...checks].map((f) => f.code),
        },
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
      appendUnreadableAnswer(db, at, { studyId: studyOf(db, recordingId), recordingId }, error);
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
      if (error) appendUnreadableAnswer(db, at, { studyId: studyOf(db, recordingId), recordingId }, error);
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

export interface UncertainUploadRow {
  readonly id: number;
  readonly source_path: string;
  readonly code: string;
  readonly uploadError: StoredUploadError | null;
}

/** The study's uploads whose outcome is unknown, with their participant, by recording. */
export const uncertainUploadRows = (db: Db, studyId: number): UncertainUploadRow[] =>
  stmt(
    db,
    `SELECT r.id, r.source_path, p.code, r.upload_error FROM recordings r JOIN participants p ON p.id = r.participant_id
         WHERE r.study_id = ? AND r.upload_state = 'upload_uncertain' ORDER BY r.id`,
  )
    .all(studyId)
    .map((r) => {
      const { upload_error, ...row } = r as Omit<UncertainUploadRow, 'uploadError'> & {
        upload_error: string | null;
      };
      return { ...row, uploadError: recordingUploadError.decodeOrNull(upload_error) };
    });

/** Ids of the batch's recordings whose upload outcome is unknown. */
export const uncertainIdsOfBatch = (db: Db, batchId: number): number[] =>
  (
    stmt(db, `SELECT id FROM recordings WHERE batch_id = ? AND upload_state = 'upload_uncertain'`).all(
      batchId,
    ) as { id: number }[]
  ).map((r) => r.id);

/**
 * The researcher insists on uploading a duplicate: it is queued (or waits for its participant's
 * account) and its batch reopens, in one transaction. False when the recording is not a duplicate.
 */
export const insistOnDuplicate = (db: Db, recordingId: number, at: () => string): boolean =>
  db
    .transaction(() => {
      const r = stmt(
        db,
        `SELECT r.study_id, p.account_id FROM recordings r JOIN participants p ON p.id = r.participant_id WHERE r.id = ? AND r.upload_state = 'duplicate'`,
      ).get(recordingId) as { study_id: number; account_id: string | null } | undefined;
      if (!r) return false;
      stmt(db, `UPDATE recordings SET upload_state = ?, duplicate_override = 1 WHERE id = ?`).run(
        r.account_id ? 'queued' : 'pending',
        recordingId,
      );
      appendEvent(db, at(), 'duplicate_insisted', { studyId: r.study_id, recordingId });
      reopenBatchesOf(db, [recordingId], at());
      return true;
    })
    .immediate();

/** The file could not be read before sending: nothing was sent, the recording is refused with the reason. */
export const rejectUnreadable = (db: Db, recordingId: number, reason: string): void => {
  stmt(
    db,
    `UPDATE recordings SET upload_state = 'rejected', upload_error = ? WHERE id = ? AND upload_state = 'uploading'`,
  ).run(JSON.stringify({ reason }), recordingId);
};

/** A refusal that pauses the queue: the file goes back to the queue, this attempt not counted. */
export const requeueUpload = (db: Db, recordingId: number): void => {
  stmt(
    db,
    `UPDATE recordings SET upload_state = 'queued', upload_attempts = upload_attempts - 1 WHERE id = ? AND upload_state = 'uploading'`,
  ).run(recordingId);
};

export interface QueuedRow {
  readonly id: number;
  readonly study_id: number;
  readonly batch_id: number;
  readonly path: string;
  readonly content_sha256: string;
  readonly account_id: string;
  readonly recorded_at: string;
  readonly analyses: readonly AnalysisType[];
  readonly isolate_oldest_speaker: number;
  /** The workstation's probe of the original file (import), to compare the receipt with. */
  readonly format: string | null;
  readonly size_bytes: number;
  readonly sample_rate_hz: number | null;
  readonly duration_seconds: number | null;
  readonly speech_estimate_seconds: number | null;
  readonly converted: number;
}

/** Queued recordings of running batches on this profile whose participant has an account, oldest first. */
export const queuedRows = (db: Db, profileId: number, limit: number): QueuedRow[] =>
  stmt(
    db,
    `SELECT r.id, r.study_id, r.batch_id, coalesce(r.upload_path, r.source_path) AS path, r.content_sha256, p.account_id, r.recorded_at,
            b.analyses, b.isolate_oldest_speaker, r.format, r.size_bytes, r.sample_rate_hz, r.duration_seconds,
            r.speech_estimate_seconds, r.converted
     FROM recordings r JOIN batches b ON b.id = r.batch_id JOIN studies s ON s.id = r.study_id JOIN participants p ON p.id = r.participant_id
     WHERE s.profile_id = ? AND b.state = 'running' AND r.upload_state = 'queued' AND p.account_id IS NOT NULL
     ORDER BY r.id LIMIT ?`,
  )
    .all(profileId, limit)
    .map((r) => {
      const row = r as Omit<QueuedRow, 'analyses'> & { analyses: string };
      return { ...row, analyses: batchAnalyses.decode(row.analyses) };
    });
