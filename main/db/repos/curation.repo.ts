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
import { sqlWords } from '../sql-words';
import { readableSelect } from '../readable-columns';
import type { Queryable, SqlValue } from '../store/types';
import { workstationName } from '../../workstation-name';
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

export const curatedRecording = async (
  q: Queryable,
  recordingId: number,
): Promise<CuratedRecording | null> => {
  const r = await q.get<RecordingRow>(
    `SELECT r.id, r.study_id, s.profile_id, r.participant_id, p.code, r.session_label, r.upload_state, r.recording_id,
            r.upload_intent_at, r.excluded_at, r.excluded_reason, r.provenance,
            r.duration_seconds, r.verdict, r.upload_error, ${await readableSelect(q, 'participants', ['account_id'], 'p')}
     FROM recordings r JOIN participants p ON p.id = r.participant_id JOIN studies s ON s.id = r.study_id WHERE r.id = ?`,
    [recordingId],
  );
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

export const participantOfStudy = async (
  q: Queryable,
  participantId: number,
): Promise<{ id: number; studyId: number; code: string; accountId: string | null } | null> => {
  const r = await q.get<{ id: number; study_id: number; code: string; account_id: string | null }>(
    `SELECT id, study_id, code, account_id FROM participants WHERE id = ?`,
    [participantId],
  );
  return r ? { id: r.id, studyId: r.study_id, code: r.code, accountId: r.account_id } : null;
};

export const participantIdByCode = async (
  q: Queryable,
  studyId: number,
  code: string,
): Promise<number | null> =>
  (
    await q.get<{ id: number }>(`SELECT id FROM participants WHERE study_id = ? AND code = ?`, [
      studyId,
      code,
    ])
  )?.id ?? null;

export const setExclusion = async (
  q: Queryable,
  recordingId: number,
  at: string | null,
  reason: string | null,
): Promise<void> => {
  await q.run(`UPDATE recordings SET excluded_at = ?, excluded_reason = ? WHERE id = ?`, [
    at,
    reason,
    recordingId,
  ]);
};

/** Moves a recording (and its stored values, which copy the participant) to a participant and session label. */
export const moveRecording = async (
  q: Queryable,
  recordingId: number,
  participantId: number,
  session: string | null,
  provenance: readonly ProvenanceNote[],
): Promise<void> => {
  await q.run(`UPDATE recordings SET participant_id = ?, session_label = ?, provenance = ? WHERE id = ?`, [
    participantId,
    session,
    provenance.length === 0 ? null : JSON.stringify(provenance),
    recordingId,
  ]);
  await q.run(`UPDATE measure_values SET participant_id = ? WHERE recording_id = ?`, [
    participantId,
    recordingId,
  ]);
};

/** A recording's row and its analysis rows exactly as stored: what deleting it removes and undoing puts back. */
export interface RecordingSnapshot {
  readonly recording: Record<string, unknown>;
  readonly analyses: readonly Record<string, unknown>[];
}

export const recordingSnapshot = async (
  q: Queryable,
  recordingId: number,
): Promise<RecordingSnapshot | null> => {
  const recording = await q.get<Record<string, unknown>>(`SELECT * FROM recordings WHERE id = ?`, [
    recordingId,
  ]);
  if (!recording) return null;
  const analyses = await q.all<Record<string, unknown>>(`SELECT * FROM analyses WHERE recording_id = ?`, [
    recordingId,
  ]);
  return { recording, analyses };
};

/**
 * Deletes a recording only if nothing of it was ever sent: one of the never-sent states, no upload
 * intent written, no service id. One statement, so the engine cannot pick it up in between.
 */
export const deleteNeverSent = async (q: Queryable, recordingId: number): Promise<boolean> =>
  (
    await q.run(
      `DELETE FROM recordings WHERE id = ? AND upload_state IN ${sqlWords(UPLOAD_STATES_NEVER_SENT)}
       AND upload_intent_at IS NULL AND recording_id IS NULL`,
      [recordingId],
    )
  ).changes === 1;

const insertRow = async (
  q: Queryable,
  table: 'recordings' | 'analyses',
  row: Record<string, unknown>,
): Promise<void> => {
  const cols = Object.keys(row);
  // Column names come from the table's own SELECT * (the snapshot), never from the researcher.
  await q.run(
    `INSERT INTO ${table} (${cols.map((c) => `"${c}"`).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
    cols.map((c) => row[c] as SqlValue),
  );
};

/** Puts back a deleted recording with its analysis rows, as they were. */
export const reinsertRecording = async (q: Queryable, s: RecordingSnapshot): Promise<void> => {
  await insertRow(q, 'recordings', s.recording);
  for (const a of s.analyses) await insertRow(q, 'analyses', a);
};

/** Sets a recording's upload state only if it is still `from` (one statement: the engine cannot slip in between). */
export const moveUploadState = async (
  q: Queryable,
  recordingId: number,
  from: string,
  to: string,
): Promise<boolean> =>
  (
    await q.run(`UPDATE recordings SET upload_state = ? WHERE id = ? AND upload_state = ?`, [
      to,
      recordingId,
      from,
    ])
  ).changes === 1;

export const recordingExists = async (q: Queryable, recordingId: number): Promise<boolean> =>
  (await q.get(`SELECT 1 FROM recordings WHERE id = ?`, [recordingId])) !== undefined;

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

/**
 * Writes an act, naming the member who did it (the database login that writes, read as the audit
 * chain's writer reads it; null on SQLite) and this workstation.
 */
export const insertCurationAct = async (q: Queryable, a: NewCurationAct): Promise<number> =>
  (await q.get<{ id: number }>(
    `INSERT INTO curation_acts (study_id, at, who, act, recording_id, participant_id, reason, before, after, undoes, member, workstation)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT t.member FROM (${q.dialect.auditChainTail.read}) t), ?) RETURNING id`,
    [
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
      workstationName(),
    ],
  ))!.id;

/** The id the next act will get (read inside the transaction that writes it). */
export const nextCurationActId = async (q: Queryable): Promise<number> =>
  (await q.get<{ n: number }>(`SELECT coalesce(max(id), 0) + 1 AS n FROM curation_acts`))!.n;

export const setCurationAudit = async (q: Queryable, actId: number, auditId: number): Promise<void> => {
  await q.run(`UPDATE curation_acts SET audit_id = ? WHERE id = ?`, [auditId, actId]);
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

export const curationActById = async (q: Queryable, actId: number): Promise<CurationActRow | null> => {
  const r = await q.get<ActRow>(`${ACT_SELECT} WHERE c.id = ?`, [actId]);
  return r ? toAct(r) : null;
};

/** A recording's acts, newest first. */
export const curationActsOfRecording = async (q: Queryable, recordingId: number): Promise<CurationActRow[]> =>
  (await q.all<ActRow>(`${ACT_SELECT} WHERE c.recording_id = ? ORDER BY c.id DESC`, [recordingId])).map(
    toAct,
  );

/** A study's acts, newest first, at most `limit`. */
export const curationActsOfStudy = async (
  q: Queryable,
  studyId: number,
  limit: number,
): Promise<CurationActRow[]> =>
  (
    await q.all<ActRow>(`${ACT_SELECT} WHERE c.study_id = ? ORDER BY c.id DESC LIMIT ?`, [studyId, limit])
  ).map(toAct);

/** A participant's acts (merges from or into it, status changes, and their undos), newest first. */
export const curationActsOfParticipant = async (
  q: Queryable,
  participantId: number,
): Promise<CurationActRow[]> =>
  (
    await q.all<ActRow>(
      `${ACT_SELECT} WHERE c.participant_id = ?
         OR (c.act = 'merge' AND ${q.dialect.jsonText('c.after', 'into.id')} = ?)
         OR c.undoes IN (SELECT m.id FROM curation_acts m WHERE m.act = 'merge' AND ${q.dialect.jsonText('m.after', 'into.id')} = ?)
       ORDER BY c.id DESC`,
      [participantId, participantId, participantId],
    )
  ).map(toAct);
