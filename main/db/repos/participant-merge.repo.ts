/**
 * What merging two participants reads and writes (migration 0180): a participant's recordings as a merge
 * moves them, its attributes, and the mark that retires a participant merged into another. The rules
 * (clashes, duplicates, which attribute wins) are the service's (main/services/participant-curation.service.ts).
 */
import type { Queryable } from '../store/types';
import type { ProvenanceNote } from './curation.repo';
import { recordingProvenance } from './recording-columns';

export interface MergedRecording {
  readonly id: number;
  readonly session: string | null;
  readonly contentSha256: string;
  readonly uploadState: string;
  readonly serviceRecordingId: string | null;
  readonly provenance: readonly ProvenanceNote[];
}

/** A participant's recordings (every state), oldest first. */
export const recordingsOfParticipant = async (
  q: Queryable,
  participantId: number,
): Promise<MergedRecording[]> =>
  (
    await q.all<{
      id: number;
      session_label: string | null;
      content_sha256: string;
      upload_state: string;
      recording_id: string | null;
      provenance: string | null;
    }>(
      `SELECT id, session_label, content_sha256, upload_state, recording_id, provenance FROM recordings
       WHERE participant_id = ? ORDER BY recorded_at, id`,
      [participantId],
    )
  ).map((r) => ({
    id: r.id,
    session: r.session_label,
    contentSha256: r.content_sha256,
    uploadState: r.upload_state,
    serviceRecordingId: r.recording_id,
    provenance: recordingProvenance.decodeOrNull(r.provenance) ?? [],
  }));

export interface MergeParticipant {
  readonly id: number;
  readonly studyId: number;
  readonly code: string;
  readonly accountId: string | null;
  readonly baselineDate: string | null;
  readonly mergedInto: number | null;
}

export const mergeParticipant = async (
  q: Queryable,
  participantId: number,
): Promise<MergeParticipant | null> => {
  const r = await q.get<{
    id: number;
    study_id: number;
    code: string;
    account_id: string | null;
    baseline_date: string | null;
    merged_into: number | null;
  }>(`SELECT id, study_id, code, account_id, baseline_date, merged_into FROM participants WHERE id = ?`, [
    participantId,
  ]);
  return r
    ? {
        id: r.id,
        studyId: r.study_id,
        code: r.code,
        accountId: r.account_id,
        baselineDate: r.baseline_date,
        mergedInto: r.merged_into,
      }
    : null;
};

/** A participant's attributes, key to value. */
export const attributesOfParticipant = async (
  q: Queryable,
  participantId: number,
): Promise<Record<string, string>> =>
  Object.fromEntries(
    (
      await q.all<{ key: string; value: string }>(
        `SELECT key, value FROM participant_attributes WHERE participant_id = ? ORDER BY ${q.dialect.binary('key')}`,
        [participantId],
      )
    ).map((r) => [r.key, r.value]),
  );

/** Marks a participant as merged into another (or, with null, brings it back). */
export const setMergedInto = async (
  q: Queryable,
  participantId: number,
  into: number | null,
  at: string | null,
): Promise<void> => {
  await q.run(`UPDATE participants SET merged_into = ?, merged_at = ? WHERE id = ?`, [
    into,
    at,
    participantId,
  ]);
};

/** Which participant a retired one was merged into (its code), for the participants list and page. */
export const mergedIntoCode = async (q: Queryable, participantId: number): Promise<string | null> =>
  (
    await q.get<{ code: string }>(
      `SELECT i.code FROM participants p JOIN participants i ON i.id = p.merged_into WHERE p.id = ?`,
      [participantId],
    )
  )?.code ?? null;
