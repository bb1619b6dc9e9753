/**
 * The write-ahead upload protocol. The intent to upload is committed before the request is sent, and
 * each outcome is committed with its event in one transaction:
 *
 *   queued ──beginUpload──▶ uploading ──accepted──▶ uploaded (analyses start processing)
 *                                     ──rejected──▶ rejected (nothing charged; may be queued again)
 *                                     ──uncertain─▶ upload_uncertain (the researcher decides)
 *
 * Each step that must be atomic opens its own transaction on the store (its caller holds none), so the
 * intent is committed when `beginUpload` resolves, before anything is sent.
 *
 * A row still `uploading` when the application starts was interrupted (crash, kill, power loss) after
 * its intent was written: the request may have reached the service, so it becomes `upload_uncertain`
 * and is never re-sent on its own. Several workstations share a study's queue: each claims the upload
 * it sends (`claimNextUpload`, one workstation at a time, with a lease it renews while sending); an
 * `uploading` row whose lease ran out was left by a workstation that stopped, and becomes uncertain
 * naming it, whichever workstation finds it.
 */
import type { ApiError } from '../../../shared/api/api-error';
import type { DataQualityFlag } from '../../../shared/api/data-quality';
import type { RecordingReceipt } from '../../../shared/api/domain';
import type { AnalysisType } from '../../../shared/api/vocabulary';
import type { StoredUploadError } from '../../../shared/recording-problems';
import { readableSelect } from '../readable-columns';
import type { Queryable, Store } from '../store/types';
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

const studyOf = async (q: Queryable, recordingId: number): Promise<number> =>
  (await q.get<{ study_id: number }>(`SELECT study_id FROM recordings WHERE id = ?`, [recordingId]))!
    .study_id;

/** A workstation's claim on the upload it sends: its name, and how long the claim holds unless renewed. */
export interface UploadClaim {
  readonly workstation: string;
  readonly leaseSeconds: number;
}

/** The intent, inside the caller's transaction: the row becomes `uploading` (claimed, when a claim is given). */
const markUploading = async (
  tx: Queryable,
  at: string,
  intent: UploadIntent,
  claim: UploadClaim | null,
): Promise<boolean> => {
  const { changes } = await tx.run(
    `UPDATE recordings SET upload_state = 'uploading', upload_intent_at = ?, upload_attempts = upload_attempts + 1,
       claimed_by = ?, lease_until = ${claim ? tx.dialect.nowPlusSeconds('?') : 'NULL'}
     WHERE id = ? AND upload_state = 'queued'
       AND EXISTS (SELECT 1 FROM batches b WHERE b.id = recordings.batch_id AND b.state = 'running')`,
    [at, claim?.workstation ?? null, ...(claim ? [claim.leaseSeconds] : []), intent.recordingId],
  );
  if (changes !== 1) return false;
  await appendEvent(
    tx,
    at,
    'upload_intent',
    { studyId: await studyOf(tx, intent.recordingId), recordingId: intent.recordingId },
    {
      sha256: intent.contentSha256,
      account_id: intent.accountId,
      analyses: intent.analyses,
      isolate_oldest_speaker: intent.isolateOldestSpeaker,
      ...(claim ? { workstation: claim.workstation } : {}),
    },
  );
  return true;
};

/**
 * Commits the intent. Returns false (and changes nothing) unless the recording is `queued` and its
 * batch still running: a file picked just before the researcher paused or cancelled is not sent.
 */
export const beginUpload = (
  store: Store,
  at: string,
  intent: UploadIntent,
  claim: UploadClaim | null = null,
): Promise<boolean> => store.transaction((tx) => markUploading(tx, at, intent, claim), { repeatable: true });

/**
 * The upload was accepted: the receipt's facts as received (a fraction or an unsafe integer in an audio
 * fact is kept, flagged), the receipt's own flags and `checks`, its differences from what was sent
 * (shared/api/receipt-check.ts), and the analyses now processing, in one transaction.
 */
export const recordAccepted = (
  store: Store,
  at: string,
  recordingId: number,
  receipt: RecordingReceipt,
  analyses: readonly AnalysisType[],
  firstPollAt: string,
  checks: readonly DataQualityFlag[] = [],
): Promise<void> =>
  store.transaction(
    async (tx) => {
      const { changes } = await tx.run(
        `UPDATE recordings SET upload_state = 'uploaded', upload_error = NULL, recording_id = ?, api_version = ?, result_source = ?,
         uploaded_at = ?, accepted_at = ?, svc_format = ?, svc_size_bytes = ?, svc_sample_rate_hz = ?, svc_bit_rate_bps = ?,
         svc_duration_seconds = ?, svc_speech_seconds = ?
       WHERE id = ? AND upload_state IN ('uploading', 'upload_uncertain')`,
        [
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
        ],
      );
      if (changes === 0) return; // written before (its commit's answer lost), or resolved meanwhile: once only
      for (const type of analyses)
        await tx.run(
          `INSERT INTO analyses (recording_id, type, state, requested_at, next_poll_at) VALUES (?, ?, 'processing', ?, ?)
       ON CONFLICT (recording_id, type) DO UPDATE SET state = 'processing', next_poll_at = excluded.next_poll_at`,
          [recordingId, type, at, firstPollAt],
        );
      await replaceFlags(tx, at, recordingId, 'receipt', null, receipt.flags ?? []);
      await replaceFlags(tx, at, recordingId, 'receipt_check', null, checks);
      await appendEvent(
        tx,
        at,
        'upload_accepted',
        { studyId: await studyOf(tx, recordingId), recordingId },
        {
          recording_id: receipt.recordingId,
          source: receipt.source,
          flags: [...(receipt.flags ?? []), ...checks].map((f) => f.code),
        },
      );
    },
    { repeatable: true },
  );

export const recordRejected = (
  store: Store,
  at: string,
  recordingId: number,
  error: ApiError,
): Promise<void> =>
  store.transaction(
    async (tx) => {
      const { changes } = await tx.run(
        `UPDATE recordings SET upload_state = 'rejected', upload_error = ? WHERE id = ? AND upload_state = 'uploading'`,
        [JSON.stringify(error), recordingId],
      );
      if (changes === 0) return; // written before, or no longer this upload's to settle
      const studyId = await studyOf(tx, recordingId);
      await appendEvent(
        tx,
        at,
        'upload_rejected',
        { studyId, recordingId },
        { kind: error.kind, status: error.status, type: error.serviceType },
      );
      await appendUnreadableAnswer(tx, at, { studyId, recordingId }, error);
    },
    { repeatable: true },
  );

export const recordUncertain = (
  store: Store,
  at: string,
  recordingId: number,
  error: ApiError | null,
  reason: string,
): Promise<void> =>
  store.transaction(
    async (tx) => {
      const { changes } = await tx.run(
        `UPDATE recordings SET upload_state = 'upload_uncertain', upload_error = ? WHERE id = ? AND upload_state = 'uploading'`,
        [JSON.stringify({ reason, error }), recordingId],
      );
      if (changes === 0) return; // written before, or no longer this upload's to settle
      const studyId = await studyOf(tx, recordingId);
      await appendEvent(
        tx,
        at,
        'upload_uncertain',
        { studyId, recordingId },
        { reason, kind: error?.kind ?? null },
      );
      if (error) await appendUnreadableAnswer(tx, at, { studyId, recordingId }, error);
    },
    { repeatable: true },
  );

/** Rows left `uploading` become uncertain with the reason, each with its event, in the caller's transaction. */
const markInterrupted = async (
  tx: Queryable,
  at: string,
  rows: readonly { id: number; study_id: number; claimed_by: string | null }[],
  reasonFor: (claimedBy: string | null) => string,
): Promise<number[]> => {
  for (const r of rows) {
    const reason = reasonFor(r.claimed_by);
    await tx.run(
      `UPDATE recordings SET upload_state = 'upload_uncertain', upload_error = ?, lease_until = NULL WHERE id = ?`,
      [JSON.stringify({ reason, error: null }), r.id],
    );
    await appendEvent(
      tx,
      at,
      'upload_interrupted',
      { studyId: r.study_id, recordingId: r.id },
      { reason, ...(r.claimed_by === null ? {} : { workstation: r.claimed_by }) },
    );
  }
  return rows.map((r) => r.id);
};

const STOPPED_HERE = 'Voicescope stopped while this upload was being sent; the service may have received it.';

/**
 * A claim whose lease ran out: the workstation that sent the upload stopped (killed, switched off,
 * cut off from the database) without saying how it ended.
 */
const lapsedReason = (workstation: string | null) =>
  workstation === null
    ? STOPPED_HERE
    : `The workstation ${workstation} stopped while it was sending this upload (its claim ran out); the service may have received it.`;

/** Why an upload this workstation claimed, and is no longer sending, is uncertain. */
export type InterruptedHere = 'stopped' | 'reconnected';
const HERE_REASON: Record<InterruptedHere, string> = {
  stopped: STOPPED_HERE,
  reconnected:
    'The connection to the study database broke while this workstation was taking this upload, so whether it was sent is not recorded; the service may have received it.',
};

/**
 * On start: uploads this workstation left `uploading` (its earlier process stopped), those claimed by
 * no workstation (sent before workstations claimed uploads), and those whose claim ran out become
 * uncertain. Another workstation's upload whose claim still holds is left alone: it may be in flight.
 * Returns their ids. Without a workstation (a study used by one process), every `uploading` row.
 * `keep`: uploads this process is still sending or has an answer for (after reconnecting, `here`
 * 'reconnected'), left as they are.
 */
export const recoverInterruptedUploads = (
  store: Store,
  at: string,
  workstation: string | null = null,
  keep: readonly number[] = [],
  here: InterruptedHere = 'stopped',
): Promise<number[]> =>
  store.transaction(
    async (tx) => {
      const kept = `id NOT IN (${tx.dialect.jsonValues('?', 'integer')})`;
      const rows = await tx.all<{ id: number; study_id: number; claimed_by: string | null }>(
        workstation === null
          ? `SELECT id, study_id, claimed_by FROM recordings WHERE upload_state = 'uploading' AND ${kept}`
          : `SELECT id, study_id, claimed_by FROM recordings WHERE upload_state = 'uploading' AND ${kept}
               AND (claimed_by IS NULL OR claimed_by = ? OR lease_until < ${tx.dialect.nowText}) ${tx.dialect.skipLocked('recordings')}`,
        workstation === null ? [JSON.stringify(keep)] : [JSON.stringify(keep), workstation],
      );
      return markInterrupted(tx, at, rows, (by) =>
        by === null || by === workstation ? HERE_REASON[here] : lapsedReason(by),
      );
    },
    { repeatable: true },
  );

/**
 * Uploads another workstation claimed whose lease ran out become uncertain, naming that workstation:
 * never sent again without the researcher. Returns their ids.
 */
export const expireLapsedClaims = (store: Store, at: string, workstation: string): Promise<number[]> =>
  store.transaction(
    async (tx) => {
      const rows = await tx.all<{ id: number; study_id: number; claimed_by: string | null }>(
        `SELECT id, study_id, claimed_by FROM recordings
         WHERE upload_state = 'uploading' AND claimed_by IS NOT NULL AND claimed_by <> ? AND lease_until < ${tx.dialect.nowText}
         ${tx.dialect.skipLocked('recordings')}`,
        [workstation],
      );
      return markInterrupted(tx, at, rows, lapsedReason);
    },
    { repeatable: true },
  );

/** The workstation is still sending these uploads: their claims hold another `leaseSeconds`. */
export const renewClaims = async (
  q: Queryable,
  workstation: string,
  recordingIds: readonly number[],
  leaseSeconds: number,
): Promise<void> => {
  if (recordingIds.length === 0) return;
  await q.run(
    `UPDATE recordings SET lease_until = ${q.dialect.nowPlusSeconds('?')}
     WHERE claimed_by = ? AND upload_state = 'uploading' AND id IN (${q.dialect.jsonValues('?', 'integer')})`,
    [leaseSeconds, workstation, JSON.stringify(recordingIds)],
  );
};

/**
 * The researcher's decision on an uncertain upload: send it again (possibly charged twice), give it up,
 * or record that it reached the service anyway (found there by other means): not sent again either way.
 */
export const resolveUncertain = async (
  q: Queryable,
  recordingId: number,
  decision: 'queue_again' | 'cancel' | 'mark_uploaded_elsewhere',
): Promise<boolean> =>
  (
    await q.run(
      `UPDATE recordings SET upload_state = ?, upload_error = ${q.dialect.jsonSetText('upload_error', 'resolution')}
            WHERE id = ? AND upload_state = 'upload_uncertain'`,
      [decision === 'queue_again' ? 'queued' : 'cancelled', decision, recordingId],
    )
  ).changes === 1;

export interface UncertainUploadRow {
  readonly id: number;
  /** Null where the login may not read file paths (an analyst of a team study). */
  readonly source_path: string | null;
  readonly code: string;
  readonly uploadError: StoredUploadError | null;
}

/** The study's uploads whose outcome is unknown, with their participant, by recording. */
export const uncertainUploadRows = async (q: Queryable, studyId: number): Promise<UncertainUploadRow[]> =>
  (
    await q.all<Omit<UncertainUploadRow, 'uploadError'> & { upload_error: string | null }>(
      `SELECT r.id, ${await readableSelect(q, 'recordings', ['source_path'], 'r')}, p.code, r.upload_error FROM recordings r JOIN participants p ON p.id = r.participant_id
         WHERE r.study_id = ? AND r.upload_state = 'upload_uncertain' ORDER BY r.id`,
      [studyId],
    )
  ).map(({ upload_error, ...row }) => ({
    ...row,
    uploadError: recordingUploadError.decodeOrNull(upload_error),
  }));

/** Ids of the batch's recordings whose upload outcome is unknown. */
export const uncertainIdsOfBatch = async (q: Queryable, batchId: number): Promise<number[]> =>
  (
    await q.all<{ id: number }>(
      `SELECT id FROM recordings WHERE batch_id = ? AND upload_state = 'upload_uncertain'`,
      [batchId],
    )
  ).map((r) => r.id);

/**
 * The researcher insists on uploading a duplicate: it is queued (or waits for its participant's
 * account) and its batch reopens, in one transaction. False when the recording is not a duplicate.
 */
export const insistOnDuplicate = (store: Store, recordingId: number, at: () => string): Promise<boolean> =>
  store.transaction(
    async (tx) => {
      const r = await tx.get<{ study_id: number; account_id: string | null }>(
        `SELECT r.study_id, p.account_id FROM recordings r JOIN participants p ON p.id = r.participant_id WHERE r.id = ? AND r.upload_state = 'duplicate'`,
        [recordingId],
      );
      if (!r) return false;
      await tx.run(`UPDATE recordings SET upload_state = ?, duplicate_override = 1 WHERE id = ?`, [
        r.account_id ? 'queued' : 'pending',
        recordingId,
      ]);
      await appendEvent(tx, at(), 'duplicate_insisted', { studyId: r.study_id, recordingId });
      await reopenBatchesOf(tx, [recordingId], at());
      return true;
    },
    { repeatable: true },
  );

/** The file could not be read before sending: nothing was sent, the recording is refused with the reason. */
export const rejectUnreadable = async (q: Queryable, recordingId: number, reason: string): Promise<void> => {
  await q.run(
    `UPDATE recordings SET upload_state = 'rejected', upload_error = ? WHERE id = ? AND upload_state = 'uploading'`,
    [JSON.stringify({ reason }), recordingId],
  );
};

/** A refusal that pauses the queue: the file goes back to the queue, this attempt not counted. */
export const requeueUpload = async (q: Queryable, recordingId: number): Promise<void> => {
  await q.run(
    `UPDATE recordings SET upload_state = 'queued', upload_attempts = upload_attempts - 1 WHERE id = ? AND upload_state = 'uploading'`,
    [recordingId],
  );
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

const QUEUED_COLUMNS = `r.id, r.study_id, r.batch_id, coalesce(r.upload_path, r.source_path) AS path, r.content_sha256, p.account_id, r.recorded_at,
            b.analyses, b.isolate_oldest_speaker, r.format, r.size_bytes, r.sample_rate_hz, r.duration_seconds,
            r.speech_estimate_seconds, r.converted`;
const QUEUED_FROM = `recordings r JOIN batches b ON b.id = r.batch_id JOIN studies s ON s.id = r.study_id JOIN participants p ON p.id = r.participant_id
     WHERE s.profile_id = ? AND b.state = 'running' AND r.upload_state = 'queued' AND p.account_id IS NOT NULL`;

const decodeQueued = (row: Omit<QueuedRow, 'analyses'> & { analyses: string }): QueuedRow => ({
  ...row,
  analyses: batchAnalyses.decode(row.analyses),
});

/** Queued recordings of running batches on this profile whose participant has an account, oldest first. */
export const queuedRows = async (q: Queryable, profileId: number, limit: number): Promise<QueuedRow[]> =>
  (
    await q.all<Omit<QueuedRow, 'analyses'> & { analyses: string }>(
      `SELECT ${QUEUED_COLUMNS} FROM ${QUEUED_FROM} ORDER BY r.id LIMIT ?`,
      [profileId, limit],
    )
  ).map(decodeQueued);

/**
 * The workstation takes the oldest queued recording it may send, and commits its intent, in one
 * transaction: the row becomes `uploading`, claimed by the workstation until its lease runs out.
 * It may send a recording whose file it holds (recording_files), or one no workstation was recorded
 * as holding (imported before workstations were). A row another workstation is taking at the same
 * moment is skipped, not waited for (`dialect.skipLocked`). Null when there is none to take.
 */
export const claimNextUpload = (
  store: Store,
  at: string,
  profileId: number,
  claim: UploadClaim,
  exclude: readonly number[] = [],
): Promise<QueuedRow | null> =>
  store.transaction(
    async (tx) => {
      const [row] = await heldQueuedRows(tx, profileId, claim.workstation, exclude, 1, true);
      if (!row) return null;
      const intent: UploadIntent = {
        recordingId: row.id,
        contentSha256: row.content_sha256,
        accountId: row.account_id,
        analyses: row.analyses,
        isolateOldestSpeaker: row.isolate_oldest_speaker === 1,
      };
      return (await markUploading(tx, at, intent, claim)) ? row : null;
    },
    { repeatable: true },
  );

/**
 * Queued recordings the workstation may send, oldest first, leaving out `exclude`: those whose file
 * it holds (recording_files), and those no workstation was recorded as holding (imported before
 * workstations were). `lock`: the rows are locked for the caller's transaction, those another
 * transaction holds skipped.
 */
export const heldQueuedRows = async (
  q: Queryable,
  profileId: number,
  workstation: string,
  exclude: readonly number[],
  limit: number,
  lock = false,
): Promise<QueuedRow[]> =>
  (
    await q.all<Omit<QueuedRow, 'analyses'> & { analyses: string }>(
      `SELECT ${QUEUED_COLUMNS} FROM ${QUEUED_FROM}
         AND r.id NOT IN (${q.dialect.jsonValues('?', 'integer')})
         AND (EXISTS (SELECT 1 FROM recording_files f WHERE f.recording_id = r.id AND f.workstation = ?)
              OR NOT EXISTS (SELECT 1 FROM recording_files f WHERE f.recording_id = r.id))
       ORDER BY r.id LIMIT ? ${lock ? q.dialect.skipLocked('r') : ''}`,
      [profileId, JSON.stringify(exclude), workstation, limit],
    )
  ).map(decodeQueued);
