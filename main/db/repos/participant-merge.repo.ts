/**
 * What merging two participants reads and writes (migration 0180): a participant's recordings as a merge
 * moves them, its attributes, and the mark that retires a participant merged into another. The rules
 * (clashes, duplicates, which attribute wins) are the service's (main/services/participant-curation.service.ts).
 */
import type { Db } from '../open';
import { stmt } from '../statements';
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
export const recordingsOfParticipant = (db: Db, participantId: number): MergedRecording[] =>
  (
    stmt(
      db,
      `SELECT id, session_label, content_sha256, upload_state, recording_id, provenance FROM recordings
       WHERE participant_id = ? ORDER BY recorded_at, id`,
    ).all(participantId) as {
      id: number;
      session_label: string | null;
      content_sha256: string;
      upload_state: string;
      recording_id: string | null;
      provenance: string | null;
    }[]
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

export const mergeParticipant = (db: Db, participantId: number): MergeParticipant | null => {
  const r = stmt(
    db,
    `SELECT id, study_id, code, account_id, baseline_date, merged_into FROM participants WHERE id = ?`,
  ).get(participantId) as
    | {
        id: number;
        study_id: number;
        code: string;
        account_id: string | null;
        baseline_date: string | null;
        merged_into: number | null;
      }
    | undefined;
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
export const attributesOfParticipant = (db: Db, participantId: number): Record<string, string> =>
  Object.fromEntries(
    (
      stmt(db, `SELECT key, value FROM participant_attributes WHERE participant_id = ? ORDER BY key`).all(
        participantId,
      ) as { key: string; value: string }[]
    ).map((r) => [r.key, r.value]),
  );

/** Marks a participant as merged into another (or, with null, brings it back). */
export const setMergedInto = (
  db: Db,
  participantId: number,
  into: number | null,
  at: string | null,
): void => {
  stmt(db, `UPDATE participants SET merged_into = ?, merged_at = ? WHERE id = ?`).run(
    into,
    at,
    participantId,
  );
};

/** Which participant a retired one was merged into (its code), for the participants list and page. */
export const mergedIntoCode = (db: Db, participantId: number): string | null =>
  (
    stmt(
      db,
      `SELECT i.code FROM participants p JOIN participants i ON i.id = p.merged_into WHERE p.id = ?`,
    ).get(participantId) as { code: string } | undefined
  )?.code ?? null;
