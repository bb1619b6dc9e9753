/**
 * An import committed as a batch: the batch, the participants that do not exist yet (without a service
 * account) and one recording per assigned file, written with the batch's event in one transaction.
 */
import type { UploadState } from '../../../shared/study';
import type { Db } from '../open';
import { stmt } from '../statements';
import { appendEventOnDb } from './event-log.repo';

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

export const insertImportBatch = (
  db: Db,
  batch: NewBatch,
  recordings: readonly NewRecording[],
): { batchId: number; byState: Partial<Record<UploadState, number>> } =>
  db
    .transaction(() => {
      const at = batch.at;
      const batchId = Number(
        stmt(
          db,
          `INSERT INTO batches (study_id, created_at, analyses, isolate_oldest_speaker, state, label, convert_wav, start_requested_at)
           VALUES (?, ?, ?, ?, 'open', ?, ?, ?)`,
        ).run(
          batch.studyId,
          at,
          batch.analyses,
          batch.isolateOldestSpeaker ? 1 : 0,
          batch.label,
          batch.convertWav ? 1 : 0,
          batch.startRequested ? at : null,
        ).lastInsertRowid,
      );
      const ensureParticipant = stmt(
        db,
        `INSERT INTO participants (study_id, code, created_at) VALUES (?, ?, ?) ON CONFLICT (study_id, code) DO NOTHING`,
      );
      // A code merged into another participant (a participant entered twice, docs/curation.md) files its
      // new recordings under the participant it was merged into.
      const participantId = stmt(
        db,
        `SELECT COALESCE(merged_into, id) AS id FROM participants WHERE study_id = ? AND code = ?`,
      );
      const insert = stmt(
        db,
        `INSERT INTO recordings (study_id, participant_id, batch_id, source_path, upload_path, content_sha256, size_bytes, format, channels,
         sample_rate_hz, duration_seconds, speech_estimate_seconds, converted, recorded_at, recorded_at_source, session_label,
         upload_state, upload_error, verdict, duplicate_of, duplicate_override, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      const byState: Partial<Record<UploadState, number>> = {};
      const planIds = new Map<string, number>();
      for (const r of recordings) {
        ensureParticipant.run(batch.studyId, r.participantCode, at);
        const pid = (participantId.get(batch.studyId, r.participantCode) as { id: number }).id;
        const dupOf = r.duplicateOf
          ? (r.duplicateOf.recordingId ?? planIds.get(r.duplicateOf.path) ?? null)
          : null;
        const id = Number(
          insert.run(
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
          ).lastInsertRowid,
        );
        planIds.set(r.sourcePath, id);
        byState[r.state] = (byState[r.state] ?? 0) + 1;
      }
      appendEventOnDb(
        db,
        at,
        'batch_created',
        { studyId: batch.studyId },
        { batch_id: batchId, recordings: recordings.length, by_state: byState },
      );
      return { batchId, byState };
    })
    .immediate();
