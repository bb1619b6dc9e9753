/**
 * Sending one queued recording: commit the intent, send it through the client, commit the outcome
 * (uploads.repo.ts). Organisation-wide refusals (key, suspension, provisioning, credits) and rate
 * limits pause the queue instead of failing file after file: the file goes back to the queue, certainly
 * not charged. One bad file never stops the others.
 */
import type { ApiError, ApiErrorKind } from '../../shared/api/api-error';
import type { AnalysisType } from '../../shared/api/vocabulary';
import type { ApiClient } from '../api/client';
import { fileAudioSource } from '../api/upload-body';
import type { Db } from '../db/open';
import { beginUpload, recordAccepted, recordRejected, recordUncertain } from '../db/repos/uploads.repo';
import { stmt } from '../db/statements';

/** Refusals that concern the whole organisation, not the file. */
export const PAUSES_QUEUE: ReadonlySet<ApiErrorKind> = new Set(['Unauthorized', 'Suspended', 'ApiNotProvisioned', 'UploadLimitExceeded', 'RateLimited']);

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
}

export type UploadOneOutcome =
  | { readonly kind: 'accepted' | 'rejected' | 'uncertain' | 'skipped' }
  | { readonly kind: 'paused'; readonly pause: QueuePause };

/** Queued recordings of running batches on this profile, oldest first, leaving out those in flight. */
export const nextQueued = (db: Db, profileId: number, limit: number, exclude: ReadonlySet<number> = new Set()): QueuedRecording[] => {
  const rows = stmt(db,
    `SELECT r.id, r.study_id, r.batch_id, coalesce(r.upload_path, r.source_path) AS path, r.content_sha256, p.account_id, r.recorded_at,
            b.analyses, b.isolate_oldest_speaker
     FROM recordings r JOIN batches b ON b.id = r.batch_id JOIN studies s ON s.id = r.study_id JOIN participants p ON p.id = r.participant_id
     WHERE s.profile_id = ? AND b.state = 'running' AND r.upload_state = 'queued' AND p.account_id IS NOT NULL
     ORDER BY r.id LIMIT ?`,
  ).all(profileId, limit + exclude.size) as { id: number; study_id: number; batch_id: number; path: string; content_sha256: string; account_id: string; recorded_at: string; analyses: string; isolate_oldest_speaker: number }[];
  return rows.filter((r) => !exclude.has(r.id)).slice(0, limit).map((r) => ({
    id: r.id, studyId: r.study_id, batchId: r.batch_id, path: r.path, contentSha256: r.content_sha256, accountId: r.account_id,
    recordedAt: r.recorded_at, analyses: JSON.parse(r.analyses) as AnalysisType[], isolateOldestSpeaker: r.isolate_oldest_speaker === 1,
  }));
};

export const uploadOne = async (
  db: Db, client: ApiClient, row: QueuedRecording, opts: { now: () => number; firstPollAfterMs: number },
): Promise<UploadOneOutcome> => {
  const iso = (ms: number) => new Date(ms).toISOString();
  if (!beginUpload(db, iso(opts.now()), {
    recordingId: row.id, contentSha256: row.contentSha256, accountId: row.accountId, analyses: row.analyses, isolateOldestSpeaker: row.isolateOldestSpeaker,
  })) return { kind: 'skipped' };
  let source;
  try {
    source = await fileAudioSource(row.path);
  } catch (e) {
    // Nothing was sent: the file vanished or became unreadable between import and upload.
    stmt(db, `UPDATE recordings SET upload_state = 'rejected', upload_error = ? WHERE id = ? AND upload_state = 'uploading'`).run(
      JSON.stringify({ reason: `The file can no longer be read (${e instanceof Error ? e.message : String(e)}). Reconnect the drive or restore the file, then queue it again.` }), row.id);
    return { kind: 'rejected' };
  }
  const out = await client.upload({
    accountId: row.accountId, recordedAt: row.recordedAt, analyses: row.analyses, isolateOldestSpeaker: row.isolateOldestSpeaker, audio: source,
  });
  const at = opts.now();
  switch (out.status) {
    case 'accepted':
      recordAccepted(db, iso(at), row.id, out.receipt, row.analyses, iso(at + opts.firstPollAfterMs));
      return { kind: 'accepted' };
    case 'uncertain':
      recordUncertain(db, iso(at), row.id, out.error, out.reason);
      return { kind: 'uncertain' };
    case 'rejected':
      if (PAUSES_QUEUE.has(out.error.kind)) {
        stmt(db, `UPDATE recordings SET upload_state = 'queued', upload_attempts = upload_attempts - 1 WHERE id = ? AND upload_state = 'uploading'`).run(row.id);
        const untilMs = out.error.kind === 'RateLimited' ? at + (out.error.retryAfterMs ?? 60_000) : null;
        return { kind: 'paused', pause: { error: out.error, untilMs } };
      }
      recordRejected(db, iso(at), row.id, out.error);
      return { kind: 'rejected' };
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
  db: Db, client: ApiClient, opts: { profileId: number; concurrency: number; now: () => number; firstPollAfterMs: number },
): Promise<UploadStepResult> => {
  const outcomes = await Promise.all(nextQueued(db, opts.profileId, opts.concurrency).map((row) => uploadOne(db, client, row, opts)));
  const n = (k: UploadOneOutcome['kind']) => outcomes.filter((o) => o.kind === k).length;
  const paused = outcomes.find((o) => o.kind === 'paused');
  return {
    sent: outcomes.length - n('skipped'), accepted: n('accepted'), rejected: n('rejected'), uncertain: n('uncertain'),
    pause: paused && paused.kind === 'paused' ? paused.pause : null,
  };
};
