/**
 * Curation (migration 0120): what the researcher's acts read and write on a recording, and the acts
 * themselves. The rules (what may be reassigned, deleted, undone) are the curation service's
 * (main/services/curation.service.ts); here only the statements.
 */
import { z } from 'zod';
import type { CurationActKind } from '../../../shared/curation';
import type { StoredUploadError } from '../../../shared/recording-problems';
import { UPLOAD_STATES_NEVER_SENT } from '../../../shared/states';
import type { VerdictView } from '../../../shared/study';
import { jsonColumn } from '../json-column';
import type { Db } from '../open';
import { sqlWords } from '../sql-words';
import { stmt } from '../statements';
import { recordingProvenance, recordingUploadError, recordingVerdict } from './recording-columns';

/** What curation reads of a recording. */
export interface CuratedRecording {
  readonly id: number;
  readonly studyId: number;
  readonly profileId: number | null;
  readonly participantId: number;
  readonly participantCode: string;
  readonly session: string | null;
  readonly uploadState: string;
  readonly serviceRecordingId: string | null;
  readonly uploadIntentAt: string | null;
  readonly excludedAt: string | null;
  readonly excludedReason: string | null;
  readonly provenance: readonly ProvenanceNote[];
  readonly durationSeconds: number | null;
  /** The local verdict of the import; null when none was stored. */
  readonly verdict: VerdictView | null;
  readonly uploadError: StoredUploadError | null;
  readonly accountId: string | null;
}

/** A note in a recording's history that an analyst must see (kept on the recording, exported). */
export interface ProvenanceNote {
  readonly at: string;
  readonly note: string;
  /** The curation act that wrote it. */
  readonly act: number;
}

interface RecordingRow {
  id: number;
  study_id: number;
  profile_id: number | null;
  participant_id: number;
  code: string;
  session_label: string | null;
  upload_state: string;
  recording_id: string | null;
  upload_intent_at: string | null;
  excluded_at: string | null;
  excluded_reason: string | null;
  provenance: string | null;
  duration_seconds: number | null;
  verdict: string | null;
  upload_error: string | null;
  account_id: string | null;
}

export const curatedRecording = (db: Db, recordingId: number): CuratedRecording | null => {
  const r = stmt(
    db,
    `SELECT r.id, r.study_id, s.profile_id, r.participant_id, p.code, r.session_label, r.upload_state, r.recording_id,
            r.upload_intent_at, r.excluded_at, r.excluded_reason, r.provenance,
            r.duration_seconds, r.verdict, r.upload_error, p.account_id
     FROM recordings r JOIN participants p ON p.id = r.participant_id JOIN studies s ON s.id = r.study_id WHERE r.id = ?`,
  ).get(recordingId) as RecordingRow | undefined;
  if (!r) return null;
  return {
    id: r.id,
    studyId: r.study_id,
    profileId: r.profile_id,
    participantId: r.participant_id,
    participantCode: r.code,
    session: r.session_label,
    uploadState: r.upload_state,
    serviceRecordingId: r.recording_id,
    uploadIntentAt: r.upload_intent_at,
    excludedAt: r.excluded_at,
    excludedReason: r.excluded_reason,
    provenance: recordingProvenance.decodeOrNull(r.provenance) ?? [],
    durationSeconds: r.duration_seconds,
    verdict: recordingVerdict.decodeOrNull(r.verdict),
    uploadError: recordingUploadError.decodeOrNull(r.upload_error),
    accountId: r.account_id,
  };
};

export const participantOfStudy = (
  db: Db,
  participantId: number,
): { id: number; studyId: number; code: string; accountId: string | null } | null => {
  const r = stmt(db, `SELECT id, study_id, code, account_id FROM participants WHERE id = ?`).get(
    participantId,
  ) as { id: number; study_id: number; code: string; account_id: string | null } | undefined;
  return r ? { id: r.id, studyId: r.study_id, code: r.code, accountId: r.account_id } : null;
};

export const participantIdByCode = (db: Db, studyId: number, code: string): number | null =>
  (
    stmt(db, `SELECT id FROM participants WHERE study_id = ? AND code = ?`).get(studyId, code) as
      { id: number } | undefined
  )?.id ?? null;

export const setExclusion = (db: Db, recordingId: number, at: string | null, reason: string | null): void => {
  stmt(db, `UPDATE recordings SET excluded_at = ?, excluded_reason = ? WHERE id = ?`).run(
    at,
    reason,
    recordingId,
  );
};

/** Moves a recording (and its stored values, which copy the participant) to a participant and session label. */
export const moveRecording = (
  db: Db,
  recordingId: number,
  participantId: number,
  session: string | null,
  provenance: readonly ProvenanceNote[],
): void => {
  stmt(db, `UPDATE recordings SET participant_id = ?, session_label = ?, provenance = ? WHERE id = ?`).run(
    participantId,
    session,
    provenance.length === 0 ? null : JSON.stringify(provenance),
    recordingId,
  );
  stmt(db, `UPDATE measure_values SET participant_id = ? WHERE recording_id = ?`).run(
    participantId,
    recordingId,
  );
};

/** A recording's row and its analysis rows exactly as stored: what deleting it removes and undoing puts back. */
export interface RecordingSnapshot {
  readonly recording: Record<string, unknown>;
  readonly analyses: readonly Record<string, unknown>[];
}

export const recordingSnapshot = (db: Db, recordingId: number): RecordingSnapshot | null => {
  const recording = stmt(db, `SELECT * FROM recordings WHERE id = ?`).get(recordingId) as
    Record<string, unknown> | undefined;
  if (!recording) return null;
  const analyses = stmt(db, `SELECT * FROM analyses WHERE recording_id = ?`).all(recordingId) as Record<
    string,
    unknown
  >[];
  return { recording, analyses };
};

/**
 * Deletes a recording only if nothing of it was ever sent: one of the never-sent states, no upload
 * intent written, no service id. One statement, so the engine cannot pick it up in between.
 */
export const deleteNeverSent = (db: Db, recordingId: number): boolean =>
  stmt(
    db,
    `DELETE FROM recordings WHERE id = ? AND upload_state IN ${sqlWords(UPLOAD_STATES_NEVER_SENT)}
       AND upload_intent_at IS NULL AND recording_id IS NULL`,
  ).run(recordingId).changes === 1;

const insertRow = (db: Db, table: 'recordings' | 'analyses', row: Record<string, unknown>): void => {
  const cols = Object.keys(row);
  // Column names come from the table's own SELECT * (the snapshot), never from the researcher.
  db.prepare(
    `INSERT INTO ${table} (${cols.map((c) => `"${c}"`).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
  ).run(...cols.map((c) => row[c]));
};

/** Puts back a deleted recording with its analysis rows, as they were. */
export const reinsertRecording = (db: Db, s: RecordingSnapshot): void => {
  insertRow(db, 'recordings', s.recording);
  for (const a of s.analyses) insertRow(db, 'analyses', a);
};

/** Sets a recording's upload state only if it is still `from` (one statement: the engine cannot slip in between). */
export const moveUploadState = (db: Db, recordingId: number, from: string, to: string): boolean =>
  stmt(db, `UPDATE recordings SET upload_state = ? WHERE id = ? AND upload_state = ?`).run(
    to,
    recordingId,
    from,
  ).changes === 1;

export const recordingExists = (db: Db, recordingId: number): boolean =>
  stmt(db, `SELECT 1 FROM recordings WHERE id = ?`).get(recordingId) !== undefined;

// ---- the acts ----

export interface CurationActRow {
  readonly id: number;
  readonly studyId: number;
  readonly at: string;
  readonly who: string;
  readonly act: CurationActKind;
  readonly recordingId: number | null;
  readonly participantId: number | null;
  readonly reason: string | null;
  readonly before: unknown;
  readonly after: unknown;
  readonly undoes: number | null;
  /** The act that undid this one, if any. */
  readonly undoneBy: number | null;
  readonly auditId: number | null;
}

export interface NewCurationAct {
  readonly studyId: number;
  readonly at: string;
  readonly who: string;
  readonly act: CurationActKind;
  readonly recordingId: number | null;
  /** A participant act's participant (migration 0180); null for a recording's act. */
  readonly participantId: number | null;
  readonly reason: string | null;
  readonly before: string;
  readonly after: string;
  readonly undoes: number | null;
}

export const insertCurationAct = (db: Db, a: NewCurationAct): number =>
  Number(
    stmt(
      db,
      `INSERT INTO curation_acts (study_id, at, who, act, recording_id, participant_id, reason, before, after, undoes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      a.studyId,
      a.at,
      a.who,
      a.act,
      a.recordingId,
      a.participantId,
      a.reason,
      a.before,
      a.after,
      a.undoes,
    ).lastInsertRowid,
  );

/** The id the next act will get (read inside the transaction that writes it). */
export const nextCurationActId = (db: Db): number =>
  (stmt(db, `SELECT coalesce(max(id), 0) + 1 AS n FROM curation_acts`).get() as { n: number }).n;

export const setCurationAudit = (db: Db, actId: number, auditId: number): void => {
  stmt(db, `UPDATE curation_acts SET audit_id = ? WHERE id = ?`).run(auditId, actId);
};

interface ActRow {
  id: number;
  study_id: number;
  at: string;
  who: string;
  act: CurationActKind;
  recording_id: number | null;
  participant_id: number | null;
  reason: string | null;
  before: string;
  after: string;
  undoes: number | null;
  undone_by: number | null;
  audit_id: number | null;
}

const ACT_SELECT = `SELECT c.*, (SELECT u.id FROM curation_acts u WHERE u.undoes = c.id) AS undone_by FROM curation_acts c`;

/** What an act changed, as it was stored: any JSON (each kind of act has its own shape, read by its undo). */
const actBefore = jsonColumn('curation_acts', 'before', z.unknown());
const actAfter = jsonColumn('curation_acts', 'after', z.unknown());

const toAct = (r: ActRow): CurationActRow => ({
  id: r.id,
  studyId: r.study_id,
  at: r.at,
  who: r.who,
  act: r.act,
  recordingId: r.recording_id,
  participantId: r.participant_id,
  reason: r.reason,
  before: actBefore.decode(r.before),
  after: actAfter.decode(r.after),
  undoes: r.undoes,
  undoneBy: r.undone_by,
  auditId: r.audit_id,
});

export const curationActById = (db: Db, actId: number): CurationActRow | null => {
  const r = stmt(db, `${ACT_SELECT} WHERE c.id = ?`).get(actId) as ActRow | undefined;
  return r ? toAct(r) : null;
};

/** A recording's acts, newest first. */
export const curationActsOfRecording = (db: Db, recordingId: number): CurationActRow[] =>
  (stmt(db, `${ACT_SELECT} WHERE c.recording_id = ? ORDER BY c.id DESC`).all(recordingId) as ActRow[]).map(
    toAct,
  );

/** A study's acts, newest first, at most `limit`. */
export const curationActsOfStudy = (db: Db, studyId: number, limit: number): CurationActRow[] =>
  (
    stmt(db, `${ACT_SELECT} WHERE c.study_id = ? ORDER BY c.id DESC LIMIT ?`).all(studyId, limit) as ActRow[]
  ).map(toAct);

/** A participant's acts (merges from or into it, status changes, and their undos), newest first. */
export const curationActsOfParticipant = (db: Db, participantId: number): CurationActRow[] =>
  (
    stmt(
      db,
      `${ACT_SELECT} WHERE c.participant_id = @p
         OR (c.act = 'merge' AND json_extract(c.after, '$.into.id') = @p)
         OR c.undoes IN (SELECT m.id FROM curation_acts m WHERE m.act = 'merge' AND json_extract(m.after, '$.into.id') = @p)
       ORDER BY c.id DESC`,
    ).all({ p: participantId }) as ActRow[]
  ).map(toAct);
