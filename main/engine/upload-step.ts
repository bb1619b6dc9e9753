/**
 * Sending one queued recording: commit the intent, send it through the client, commit the outcome
 * (uploads.repo.ts). Organisation-wide refusals (key, suspension, provisioning, credits) and rate
 * limits pause the queue instead of failing file after file: the file goes back to the queue, certainly
 * not charged. One bad file never stops the others.
 *
 * When the outcome cannot be written (disk full, read-only or failing drive) the answer is not lost:
 * the step returns `unrecorded` with a way to write it again, and the row stays `uploading`, which a
 * restart turns into `upload_uncertain`, never into a second upload.
 */
import type { ApiError, ApiErrorKind } from '../../shared/api/api-error';
import type { DataQualityFlag } from '../../shared/api/data-quality';
import type { RecordingReceipt } from '../../shared/api/domain';
import { checkReceipt } from '../../shared/api/receipt-check';
import { iso } from '../../shared/iso';
import type { AnalysisType } from '../../shared/api/vocabulary';
import type { ApiClient } from '../api/client';
import { fileAudioSource, type AudioSource } from '../api/upload-body';
import type { Store } from '../db/store/types';
import {
  beginUpload,
  queuedRows,
  recordAccepted,
  type QueuedRow,
  recordRejected,
  recordUncertain,
  rejectUnreadable,
  requeueUpload,
} from '../db/repos/uploads.repo';
import { CONVERTED_RATE_HZ } from '../import/local-verdict';

/** Refusals that concern the whole organisation, not the file. */
export const PAUSES_QUEUE: ReadonlySet<ApiErrorKind> = new Set([
  'Unauthorized',
  'Suspended',
  'ApiNotProvisioned',
  'UploadLimitExceeded',
  'RateLimited',
  'InsecureAddress',
]);

export interface QueuePause {
  readonly error: ApiError;
  /** For rate limits: when sending may resume (epoch ms); null: until the researcher resumes. */
  readonly untilMs: number | null;
}

export interface QueuedRecording {
  readonly id: number;
  readonly studyId: number;
  readonly batchId: number;
  readonly path: string;
  readonly contentSha256: string;
  readonly accountId: string;
  readonly recordedAt: string;
  readonly analyses: readonly AnalysisType[];
  readonly isolateOldestSpeaker: boolean;
  /** The workstation's probe of the file at import, to check the receipt with; absent: the receipt is not compared. */
  readonly probe?: LocalProbe;
}

/** What the workstation read of the original file at import. */
export interface LocalProbe {
  readonly format: string | null;
  readonly sizeBytes: number;
  readonly sampleRateHz: number | null;
  readonly durationSeconds: number | null;
  readonly speechSeconds: number | null;
  /** A converted copy (mono, 16 kHz WAV) was sent instead of the original. */
  readonly converted: boolean;
}

/**
 * The receipt compared with what was sent: the account, the recording time, and the
 * audio facts against the probe. A converted copy is compared as what was sent (WAV at 16 kHz, the copy's
 * size); facts the workstation could not read are not compared. Differences are flags, never a refusal.
 */
export const receiptChecks = (
  receipt: RecordingReceipt,
  row: QueuedRecording,
  sentBytes: number,
): DataQualityFlag[] => {
  const p = row.probe;
  const format = p?.converted ? 'wav' : (p?.format ?? null);
  const rate = p?.converted ? CONVERTED_RATE_HZ : (p?.sampleRateHz ?? null);
  const duration = p?.durationSeconds ?? null;
  const a = receipt.audio;
  // checkReceipt compares only the facts the receipt gives: those the workstation could not read are left out.
  const comparable: RecordingReceipt = {
    ...receipt,
    audio: {
      ...a,
      format: format === null ? null : a.format,
      sampleRateHz: rate === null ? null : a.sampleRateHz,
      durationSeconds: duration === null ? null : a.durationSeconds,
      speechDurationSeconds: p?.speechSeconds == null ? null : a.speechDurationSeconds,
    },
  };
  return checkReceipt(comparable, {
    accountId: row.accountId,
    recordedAt: row.recordedAt,
    isolateOldestSpeaker: row.isolateOldestSpeaker,
    probe: {
      format: format ?? '',
      sizeBytes: sentBytes,
      sampleRateHz: rate ?? 0,
      durationSeconds: duration ?? 0,
      speechSeconds: p?.speechSeconds ?? null,
    },
  });
};

export type UploadOneOutcome =
  | { readonly kind: 'accepted' | 'rejected' | 'uncertain' | 'skipped' }
  | { readonly kind: 'paused'; readonly pause: QueuePause }
  /**
   * The service answered (or the file could not be read) but writing the outcome failed with `error`.
   * The row is still `uploading`. `retry` writes the same outcome again and says what became of it.
   */
  | {
      readonly kind: 'unrecorded';
      readonly error: unknown;
      readonly answer: string;
      retry(): Promise<UploadOneOutcome>;
    };

/** A rate limit pauses sending at most this long before one request asks again, whatever Retry-After said. */
export const MAX_RATE_LIMIT_PAUSE_MS = 15 * 60_000;

/** Writes an outcome; a failed write is returned with a way to try it again instead of being thrown (the answer must not be lost). */
const settle = async (answer: string, write: () => Promise<UploadOneOutcome>): Promise<UploadOneOutcome> => {
  try {
    return await write();
  } catch (error) {
    return { kind: 'unrecorded', error, answer, retry: () => settle(answer, write) };
  }
};

/** The service answered with a recording id another recording already holds (a UNIQUE column). */
const isDuplicateRecordingId = (store: Store, e: unknown): boolean =>
  store.dialect.isUniqueViolation(e, 'recordings', 'recording_id');

/** A queued row as the engine sends it. */
export const toQueuedRecording = (r: QueuedRow): QueuedRecording => ({
  id: r.id,
  studyId: r.study_id,
  batchId: r.batch_id,
  path: r.path,
  contentSha256: r.content_sha256,
  accountId: r.account_id,
  recordedAt: r.recorded_at,
  analyses: r.analyses,
  isolateOldestSpeaker: r.isolate_oldest_speaker === 1,
  probe: {
    format: r.format,
    sizeBytes: r.size_bytes,
    sampleRateHz: r.sample_rate_hz,
    durationSeconds: r.duration_seconds,
    speechSeconds: r.speech_estimate_seconds,
    converted: r.converted === 1,
  },
});

/** Queued recordings of running batches on this profile, oldest first, leaving out those in flight. */
export const nextQueued = async (
  store: Store,
  profileId: number,
  limit: number,
  exclude: ReadonlySet<number> = new Set(),
): Promise<QueuedRecording[]> => {
  const rows = await queuedRows(store, profileId, limit + exclude.size);
  return rows
    .filter((r) => !exclude.has(r.id))
    .slice(0, limit)
    .map(toQueuedRecording);
};

/** How a queued file is opened for sending: from disk, or (in timing tests) from memory, which takes no real time. */
export type OpenAudio = (path: string) => Promise<AudioSource>;

export interface SendOptions {
  readonly now: () => number;
  readonly firstPollAfterMs: number;
  readonly openAudio?: OpenAudio;
}

/** Commits the intent (no claim: a study one process sends from), then sends the recording. */
export const uploadOne = async (
  store: Store,
  client: ApiClient,
  row: QueuedRecording,
  opts: SendOptions,
): Promise<UploadOneOutcome> => {
  // The intent is committed (its transaction ended) before the request is sent.
  if (
    !(await beginUpload(store, iso(opts.now()), {
      recordingId: row.id,
      contentSha256: row.contentSha256,
      accountId: row.accountId,
      analyses: row.analyses,
      isolateOldestSpeaker: row.isolateOldestSpeaker,
    }))
  )
    return { kind: 'skipped' };
  return sendClaimed(store, client, row, opts);
};

/** Sends a recording whose intent is committed (it is `uploading`) and commits the outcome. */
export const sendClaimed = async (
  store: Store,
  client: ApiClient,
  row: QueuedRecording,
  opts: SendOptions,
): Promise<UploadOneOutcome> => {
  let source;
  try {
    source = await (opts.openAudio ?? fileAudioSource)(row.path);
  } catch (e) {
    // Nothing was sent: the file vanished or became unreadable between import and upload.
    const reason = `The file can no longer be read (${e instanceof Error ? e.message : String(e)}). Reconnect the drive or restore the file, then queue it again.`;
    return settle('file unreadable, not sent', async () => {
      await rejectUnreadable(store, row.id, reason);
      return { kind: 'rejected' };
    });
  }
  const out = await client.upload({
    accountId: row.accountId,
    recordedAt: row.recordedAt,
    analyses: row.analyses,
    isolateOldestSpeaker: row.isolateOldestSpeaker,
    audio: source,
  });
  const at = opts.now();
  switch (out.status) {
    case 'accepted':
      return settle(`accepted as recording ${out.receipt.recordingId}`, async () => {
        try {
          await recordAccepted(
            store,
            iso(at),
            row.id,
            out.receipt,
            row.analyses,
            iso(at + opts.firstPollAfterMs),
            receiptChecks(out.receipt, row, source.sizeBytes),
          );
          return { kind: 'accepted' };
        } catch (e) {
          if (!isDuplicateRecordingId(store, e)) throw e;
          // Charged, but its results could not be told apart from another recording's: the researcher decides.
          await recordUncertain(
            store,
            iso(at),
            row.id,
            null,
            `The service accepted the upload but answered with the id of another recording in this workspace (${out.receipt.recordingId}), so its results cannot be told apart.`,
          );
          return { kind: 'uncertain' };
        }
      });
    case 'uncertain':
      return settle('uncertain', async () => {
        await recordUncertain(store, iso(at), row.id, out.error, out.reason);
        return { kind: 'uncertain' };
      });
    case 'rejected':
      if (PAUSES_QUEUE.has(out.error.kind)) {
        const wait =
          out.error.kind === 'RateLimited'
            ? Math.min(out.error.retryAfterMs ?? 60_000, MAX_RATE_LIMIT_PAUSE_MS)
            : null;
        const pause: QueuePause = { error: out.error, untilMs: wait === null ? null : at + wait };
        return settle(`refused (${out.error.kind}), not charged`, async () => {
          await requeueUpload(store, row.id);
          return { kind: 'paused', pause };
        });
      }
      return settle(`refused (${out.error.kind}), not charged`, async () => {
        await recordRejected(store, iso(at), row.id, out.error);
        return { kind: 'rejected' };
      });
  }
};

export interface UploadStepResult {
  readonly sent: number;
  readonly accepted: number;
  readonly rejected: number;
  readonly uncertain: number;
  readonly pause: QueuePause | null;
}

/** Sends up to `concurrency` queued recordings at once and waits for all of them (tests and one-shot runs). */
export const runUploadStep = async (
  store: Store,
  client: ApiClient,
  opts: { profileId: number; concurrency: number; now: () => number; firstPollAfterMs: number },
): Promise<UploadStepResult> => {
  const outcomes = await Promise.all(
    (await nextQueued(store, opts.profileId, opts.concurrency)).map((row) =>
      uploadOne(store, client, row, opts),
    ),
  );
  const unrecorded = outcomes.find((o) => o.kind === 'unrecorded');
  if (unrecorded && unrecorded.kind === 'unrecorded') throw unrecorded.error;
  const n = (k: UploadOneOutcome['kind']) => outcomes.filter((o) => o.kind === k).length;
  const paused = outcomes.find((o) => o.kind === 'paused');
  return {
    sent: outcomes.length - n('skipped'),
    accepted: n('accepted'),
    rejected: n('rejected'),
    uncertain: n('uncertain'),
    pause: paused && paused.kind === 'paused' ? paused.pause : null,
  };
};
