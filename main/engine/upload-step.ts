/**
 * One step of the upload queue: take up to `concurrency` queued recordings, commit each intent, send
 * it through the client, and commit the outcome (uploads.repo.ts). Organisation-wide refusals (key,
 * suspension, provisioning, credits) and rate limits pause the queue instead of failing file after
 * file; one bad file never stops the others.
 */
import type { ApiError, ApiErrorKind } from '../../shared/api/api-error';
import type { AnalysisType } from '../../shared/api/vocabulary';
import type { ApiClient } from '../api/client';
import { fileAudioSource } from '../api/upload-body';
import type { Db } from '../db/open';
import { beginUpload, recordAccepted, recordRejected, recordUncertain } from '../db/repos/uploads.repo';

/** Refusals that concern the whole organisation, not the file: the queue pauses and the file stays queued. */
const PAUSES_QUEUE: ReadonlySet<ApiErrorKind> = new Set(['Unauthorized', 'Suspended', 'ApiNotProvisioned', 'UploadLimitExceeded', 'RateLimited']);

export interface QueuePause {
  readonly error: ApiError;
  /** For rate limits: when sending may resume (epoch ms); null: until the researcher resumes. */
  readonly untilMs: number | null;
}

export interface UploadStepResult {
  readonly sent: number;
  readonly accepted: number;
  readonly rejected: number;
  readonly uncertain: number;
  readonly pause: QueuePause | null;
}

interface QueuedRow {
  id: number;
  source_path: string;
  content_sha256: string;
  account_id: string | null;
  analyses: string;
  isolate_oldest_speaker: number;
}

export const runUploadStep = async (
  db: Db,
  client: ApiClient,
  opts: { studyId: number; concurrency: number; now: () => number; firstPollAfterMs: number },
): Promise<UploadStepResult> => {
  const rows = db.prepare(
    `SELECT r.id, r.source_path, r.content_sha256, p.account_id, b.analyses, b.isolate_oldest_speaker
     FROM recordings r JOIN participants p ON p.id = r.participant_id JOIN batches b ON b.id = r.batch_id
     WHERE r.study_id = ? AND r.upload_state = 'queued' AND b.state IN ('open', 'running')
     ORDER BY r.id LIMIT ?`,
  ).all(opts.studyId, opts.concurrency) as QueuedRow[];

  let accepted = 0, rejected = 0, uncertain = 0, sent = 0;
  let pause: QueuePause | null = null;
  const iso = (ms: number) => new Date(ms).toISOString();

  await Promise.all(rows.map(async (row) => {
    if (row.account_id === null) return; // participants get accounts before their files are queued
    const analyses = JSON.parse(row.analyses) as AnalysisType[];
    if (!beginUpload(db, iso(opts.now()), {
      recordingId: row.id, contentSha256: row.content_sha256, accountId: row.account_id, analyses, isolateOldestSpeaker: row.isolate_oldest_speaker === 1,
    })) return;
    sent++;
    let source;
    try {
      source = await fileAudioSource(row.source_path);
    } catch (e) {
      // Nothing was sent: the file vanished between import and upload.
      db.prepare(`UPDATE recordings SET upload_state = 'rejected', upload_error = ? WHERE id = ?`)
        .run(JSON.stringify({ reason: `The file can no longer be read: ${e instanceof Error ? e.message : String(e)}` }), row.id);
      rejected++;
      return;
    }
    const out = await client.upload({
      accountId: row.account_id, recordedAt: (db.prepare(`SELECT recorded_at FROM recordings WHERE id = ?`).get(row.id) as { recorded_at: string }).recorded_at,
      analyses, isolateOldestSpeaker: row.isolate_oldest_speaker === 1, audio: source,
    });
    const at = opts.now();
    switch (out.status) {
      case 'accepted':
        recordAccepted(db, iso(at), row.id, out.receipt, analyses, iso(at + opts.firstPollAfterMs));
        accepted++;
        return;
      case 'uncertain':
        recordUncertain(db, iso(at), row.id, out.error, out.reason);
        uncertain++;
        return;
      case 'rejected':
        if (PAUSES_QUEUE.has(out.error.kind)) {
          // Not this file's fault: it goes back to the queue, certainly not charged.
          db.prepare(`UPDATE recordings SET upload_state = 'queued' WHERE id = ? AND upload_state = 'uploading'`).run(row.id);
          pause = { error: out.error, untilMs: out.error.kind === 'RateLimited' && out.error.retryAfterMs !== null ? at + out.error.retryAfterMs : null };
          return;
        }
        recordRejected(db, iso(at), row.id, out.error);
        rejected++;
    }
  }));
  return { sent, accepted, rejected, uncertain, pause };
};
