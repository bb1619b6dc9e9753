/**
 * An import committed as a batch: the batch, the participants that do not exist yet (without a service
 * account) and one recording per assigned file (the caller writes them with the batch's event in one
 * transaction).
 */
import type { UploadState } from '../../../shared/study';
import type { Queryable } from '../store/types';

export interface NewBatch {
  readonly studyId: number;
  readonly at: string;
  /** The analysis types, as stored (JSON). */
  readonly analyses: string;
  readonly isolateOldestSpeaker: boolean;
  readonly label: string;
  readonly convertWav: boolean;
  /**
   * The researcher asked to import and start: the intent is written with the import, so a batch left
   * `open` by a crash before its start is found and started later (batches.repo.ts, interruptedStarts).
   */
  readonly startRequested?: boolean;
}

export interface NewRecording {
  readonly participantCode: string | null;
  readonly sourcePath: string;
  readonly uploadPath: string | null;
  readonly sha256: string | null;
  readonly sizeBytes: number;
  readonly format: string | null;
  readonly channels: number | null;
  readonly sampleRateHz: number | null;
  readonly durationSeconds: number | null;
  readonly speechSeconds: number | null;
  readonly recordedAt: string | null;
  readonly recordedAtSource: string | null;
  readonly session: string | null;
  readonly state: UploadState;
  readonly error: string | null;
  /** The verdict, as stored (JSON). */
  readonly verdict: string;
  /** The recording this one duplicates: one already stored, or another file of this import (by path). */
  readonly duplicateOf: { readonly recordingId?: number | null; readonly path: string } | null;
  readonly duplicateOverride: boolean;
}

/**
 * Writes the batch, the participants it names that do not exist yet and its recordings; run it inside
 * the caller's transaction (with the batch's event, main/import/import-commit.ts).
 */
export const insertImportBatch = async (
  q: Queryable,
  batch: NewBatch,
  recordings: readonly NewRecording[],
): Promise<{ batchId: number; byState: Partial<Record<UploadState, number>> }> => {
  const at = batch.at;
  const { id: batchId } = (await q.get<{ id: number }>(
    `INSERT INTO batches (study_id, created_at, analyses, isolate_oldest_speaker, state, label, convert_wav, start_requested_at)
     VALUES (?, ?, ?, ?, 'open', ?, ?, ?) RETURNING id`,
    [
      batch.studyId,
      at,
      batch.analyses,
      batch.isolateOldestSpeaker ? 1 : 0,
      batch.label,
      batch.convertWav ? 1 : 0,
      batch.startRequested ? at : null,
    ],
  ))!;
  const byState: Partial<Record<UploadState, number>> = {};
  const planIds = new Map<string, number>();
  for (const r of recordings) {
    await q.run(
      `INSERT INTO participants (study_id, code, created_at) VALUES (?, ?, ?) ON CONFLICT (study_id, code) DO NOTHING`,
      [batch.studyId, r.participantCode, at],
    );
    // A code merged into another participant (a participant entered twice, docs/curation.md) files its
    // new recordings under the participant it was merged into.
    const { id: pid } = (await q.get<{ id: number }>(
      `SELECT COALESCE(merged_into, id) AS id FROM participants WHERE study_id = ? AND code = ?`,
      [batch.studyId, r.participantCode],
    ))!;
    const dupOf = r.duplicateOf
      ? (r.duplicateOf.recordingId ?? planIds.get(r.duplicateOf.path) ?? null)
      : null;
    const { id } = (await q.get<{ id: number }>(
      `INSERT INTO recordings (study_id, participant_id, batch_id, source_path, upload_path, content_sha256, size_bytes, format, channels,
         sample_rate_hz, duration_seconds, speech_estimate_seconds, converted, recorded_at, recorded_at_source, session_label,
         upload_state, upload_error, verdict, duplicate_of, duplicate_override, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      [
        batch.studyId,
        pid,
        batchId,
        r.sourcePath,
        r.uploadPath,
        r.sha256,
        r.sizeBytes,
        r.format,
        r.channels,
        r.sampleRateHz,
        r.durationSeconds,
        r.speechSeconds,
        r.uploadPath ? 1 : 0,
        r.recordedAt,
        r.recordedAtSource,
        r.session,
        r.state,
        r.error,
        r.verdict,
        dupOf,
        r.duplicateOverride ? 1 : 0,
        at,
      ],
    ))!;
    planIds.set(r.sourcePath, id);
    byState[r.state] = (byState[r.state] ?? 0) + 1;
  }
  return { batchId, byState };
};
