/**
 * Needs-you items the researcher dismissed (migration 0180): one row per recording whose item was set
 * aside, holding the upload state it was dismissed in (a dismissal lapses when the recording moves on,
 * e.g. it is sent anyway) and the curation act that did it (who, when, why). The rules are the service's
 * (main/services/needs-you-curation.service.ts).
 */
import { ANALYSIS_STATES_FAILED, UPLOAD_STATES_NEEDING_ATTENTION } from '../../../shared/states';
import { sqlWords } from '../sql-words';
import { readableSelect } from '../readable-columns';
import type { Queryable } from '../store/types';

/** A recording is a dismissed item while it is still in the state it was dismissed in (SQL, on `r`). */
export const DISMISSED = `EXISTS (SELECT 1 FROM needs_you_dismissals d WHERE d.recording_id = r.id AND d.upload_state = r.upload_state)`;

/** Dismissed items among the files migration 0040 counts as needing the researcher (`rec_attention`). */
const dismissedAttention = (where: string) =>
  `(SELECT count(*) FROM needs_you_dismissals d JOIN recordings r ON r.id = d.recording_id
     WHERE ${where} AND d.upload_state = r.upload_state
       AND r.upload_state IN ${sqlWords(UPLOAD_STATES_NEEDING_ATTENTION)})`;

/** Participant `p`'s files that need the researcher, dismissed ones left out (SQL, on `p`). */
export const PARTICIPANT_ATTENTION = `(p.rec_attention - ${dismissedAttention('r.participant_id = p.id')})`;

/** Study `s`'s dismissed files among its participants' `rec_attention` (SQL, on `s`). */
export const STUDY_DISMISSED_ATTENTION = dismissedAttention('r.study_id = s.id');

export interface NeedsYouFacts {
  readonly id: number;
  readonly studyId: number;
  readonly uploadState: string;
  /** An analysis of an uploaded recording failed, timed out or went unanswered. */
  readonly analysisFailed: boolean;
  /** The act of the dismissal in force, if any. */
  readonly dismissedBy: number | null;
}

export const needsYouFacts = async (q: Queryable, recordingId: number): Promise<NeedsYouFacts | null> => {
  const r = await q.get<{
    id: number;
    study_id: number;
    upload_state: string;
    failed: number;
    act: number | null;
  }>(
    `SELECT r.id, r.study_id, r.upload_state,
            ${q.dialect.flag(`EXISTS (SELECT 1 FROM analyses a WHERE a.recording_id = r.id AND a.state IN ${sqlWords(ANALYSIS_STATES_FAILED)})`)} AS failed,
            (SELECT d.act_id FROM needs_you_dismissals d WHERE d.recording_id = r.id AND d.upload_state = r.upload_state) AS act
     FROM recordings r WHERE r.id = ?`,
    [recordingId],
  );
  return r
    ? {
        id: r.id,
        studyId: r.study_id,
        uploadState: r.upload_state,
        analysisFailed: r.failed === 1,
        dismissedBy: r.act,
      }
    : null;
};

export const setDismissal = async (
  q: Queryable,
  recordingId: number,
  uploadState: string,
  actId: number,
): Promise<void> => {
  await q.run(
    `INSERT INTO needs_you_dismissals (recording_id, upload_state, act_id) VALUES (?, ?, ?)
     ON CONFLICT (recording_id) DO UPDATE SET upload_state = excluded.upload_state, act_id = excluded.act_id`,
    [recordingId, uploadState, actId],
  );
};

/** Removes the dismissal `actId` made; false when it is no longer the one in force. */
export const clearDismissal = async (q: Queryable, recordingId: number, actId: number): Promise<boolean> =>
  (
    await q.run(`DELETE FROM needs_you_dismissals WHERE recording_id = ? AND act_id = ?`, [
      recordingId,
      actId,
    ])
  ).changes === 1;

export interface DismissedItemRow {
  readonly recordingId: number;
  readonly path: string;
  readonly participantCode: string;
  readonly uploadState: string;
  readonly batchId: number | null;
  readonly act: number;
  readonly at: string;
  readonly who: string;
  readonly reason: string | null;
}

/** A study's dismissed items still in force (optionally of one batch), newest dismissal first. */
export const dismissedItems = async (
  q: Queryable,
  studyId: number,
  batchId: number | null,
): Promise<DismissedItemRow[]> =>
  (
    await q.all<{
      id: number;
      source_path: string | null;
      code: string;
      upload_state: string;
      batch_id: number | null;
      act: number;
      at: string;
      who: string;
      reason: string | null;
    }>(
      `SELECT r.id, ${await readableSelect(q, 'recordings', ['source_path'], 'r')}, p.code, r.upload_state, r.batch_id, c.id AS act, c.at, c.who, c.reason
       FROM needs_you_dismissals d JOIN recordings r ON r.id = d.recording_id AND r.upload_state = d.upload_state
       JOIN participants p ON p.id = r.participant_id JOIN curation_acts c ON c.id = d.act_id
       WHERE r.study_id = ? AND (${q.dialect.param('integer')} IS NULL OR r.batch_id = ?) ORDER BY c.id DESC`,
      [studyId, batchId, batchId],
    )
  ).map((r) => ({
    recordingId: r.id,
    path: r.source_path ?? `recording ${r.id}`,
    participantCode: r.code,
    uploadState: r.upload_state,
    batchId: r.batch_id,
    act: r.act,
    at: r.at,
    who: r.who,
    reason: r.reason,
  }));
