/**
 * What is odd in the service's answers, kept per recording (migration 0080): the data-quality flags of
 * the analysis answers (`poll`), of the upload receipt (`receipt`) and of its comparison with what was
 * sent (`receipt_check`); the analysis types the specification does not describe, as received.
 * The writers run inside the engine's upload and result transactions (uploads.repo.ts, results.repo.ts),
 * on their handle, so the flags are committed with what they flag.
 */
import type { DataQualityCode, DataQualityFlag } from '../../../shared/api/data-quality';
import type { UnlistedAnalysis } from '../../../shared/api/domain';
import { z } from 'zod';
import { jsonColumn } from '../json-column';
import type { Queryable } from '../store/types';

export type FlagOrigin = 'poll' | 'receipt' | 'receipt_check';

export interface StoredFlag extends DataQualityFlag {
  readonly origin: FlagOrigin;
  /** The analysis type the flag belongs to; null: the recording's metadata or the receipt. */
  readonly analysisType: string | null;
}

/** Replaces the flags of one origin and analysis type (null: the recording-level ones) with `flags`. */
export const replaceFlags = async (
  q: Queryable,
  at: string,
  recordingId: number,
  origin: FlagOrigin,
  analysisType: string | null,
  flags: readonly DataQualityFlag[],
): Promise<void> => {
  await q.run(
    `DELETE FROM data_quality_flags WHERE recording_id = ? AND origin = ? AND ${q.dialect.notDistinct('analysis_type', '?')}`,
    [recordingId, origin, analysisType],
  );
  for (const f of flags)
    await q.run(
      `INSERT INTO data_quality_flags (recording_id, origin, analysis_type, code, path, measures, received, expected, flagged_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        recordingId,
        origin,
        analysisType,
        f.code,
        f.path,
        JSON.stringify(f.measures),
        f.received,
        f.expected,
        at,
      ],
    );
};

/** Keeps the analysis types the API version does not list, as received (a later poll's copy replaces an earlier one). */
export const storeUnlisted = async (
  q: Queryable,
  at: string,
  recordingId: number,
  unlisted: readonly UnlistedAnalysis[],
): Promise<void> => {
  for (const u of unlisted)
    await q.run(
      `INSERT INTO unlisted_analyses (recording_id, name, raw, received_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (recording_id, name) DO UPDATE SET raw = excluded.raw, received_at = excluded.received_at`,
      [recordingId, u.name, u.raw, at],
    );
};

interface FlagRow {
  readonly recording_id: number;
  readonly origin: FlagOrigin;
  readonly analysis_type: string | null;
  readonly code: DataQualityCode;
  readonly path: string;
  readonly measures: string;
  readonly received: string | null;
  readonly expected: string;
}

const flagMeasures = jsonColumn('data_quality_flags', 'measures', z.array(z.string()), {
  valuesRepeat: true,
});

const toFlag = (r: FlagRow): StoredFlag => ({
  origin: r.origin,
  analysisType: r.analysis_type,
  code: r.code,
  path: r.path,
  measures: flagMeasures.decode(r.measures),
  received: r.received,
  expected: r.expected,
});

const FLAG_COLUMNS = `recording_id, origin, analysis_type, code, path, measures, received, expected`;

/** Every flag of one recording, receipt first, then by analysis type and the order they were raised. */
export const flagsOfRecording = async (q: Queryable, recordingId: number): Promise<StoredFlag[]> =>
  (
    await q.all<FlagRow>(
      `SELECT ${FLAG_COLUMNS} FROM data_quality_flags WHERE recording_id = ?
       ORDER BY CASE origin WHEN 'receipt' THEN 0 WHEN 'receipt_check' THEN 1 ELSE 2 END, coalesce(analysis_type, ''), id`,
      [recordingId],
    )
  ).map(toFlag);

/** The flags of several recordings at once (ids as given), by recording. */
export const flagsOfRecordings = async (
  q: Queryable,
  recordingIds: readonly number[],
): Promise<Map<number, StoredFlag[]>> => {
  const out = new Map<number, StoredFlag[]>();
  const rows = await q.all<FlagRow>(
    `SELECT ${FLAG_COLUMNS} FROM data_quality_flags WHERE recording_id IN (${q.dialect.jsonValues('?', 'integer')})
     ORDER BY recording_id, CASE origin WHEN 'receipt' THEN 0 WHEN 'receipt_check' THEN 1 ELSE 2 END, coalesce(analysis_type, ''), id`,
    [JSON.stringify(recordingIds)],
  );
  for (const r of rows) {
    let list = out.get(r.recording_id);
    if (!list) out.set(r.recording_id, (list = []));
    list.push(toFlag(r));
  }
  return out;
};

export interface ReceiptDifference extends StoredFlag {
  readonly recordingId: number;
  readonly participantCode: string;
  readonly sourcePath: string;
  readonly sessionLabel: string | null;
}

/**
 * The receipt flags of one batch's recordings (origin `receipt` or `receipt_check`): what the service's
 * upload receipts said that departs from the specification or from what was sent, by recording.
 */
export const receiptFlagsOfBatch = async (q: Queryable, batchId: number): Promise<ReceiptDifference[]> =>
  (
    await q.all<
      FlagRow & {
        participant_code: string;
        source_path: string;
        session_label: string | null;
      }
    >(
      `SELECT f.recording_id, f.origin, f.analysis_type, f.code, f.path, f.measures, f.received, f.expected,
              p.code AS participant_code, r.source_path, r.session_label
       FROM data_quality_flags f JOIN recordings r ON r.id = f.recording_id JOIN participants p ON p.id = r.participant_id
       WHERE r.batch_id = ? AND f.origin IN ('receipt', 'receipt_check')
       ORDER BY f.recording_id, CASE f.origin WHEN 'receipt_check' THEN 0 ELSE 1 END, f.id`,
      [batchId],
    )
  ).map((r) => ({
    ...toFlag(r),
    recordingId: r.recording_id,
    participantCode: r.participant_code,
    sourcePath: r.source_path,
    sessionLabel: r.session_label,
  }));

export interface AnswerAsReceived {
  readonly recordingId: number;
  /** The analysis type (listed or not) as the service named it. */
  readonly name: string;
  /** false: an analysis type this API version does not list (reported by the service, not described by the specification). */
  readonly listed: boolean;
  /** The status member as received; null when absent or for unlisted types. */
  readonly receivedStatus: string | null;
  readonly raw: string;
}

/** Each analysis object of these recordings exactly as last received, listed types first (by type), then unlisted ones. */
export const answersAsReceived = async (
  q: Queryable,
  recordingIds: readonly number[],
): Promise<AnswerAsReceived[]> => {
  const ids = JSON.stringify(recordingIds);
  const rows = await q.all<Omit<AnswerAsReceived, 'listed'> & { listed: number }>(
    `SELECT recording_id AS "recordingId", name, listed, "receivedStatus", raw FROM (
         SELECT recording_id, type AS name, 1 AS listed, received_status AS "receivedStatus", raw FROM analyses
          WHERE raw IS NOT NULL AND recording_id IN (${q.dialect.jsonValues('?', 'integer')})
         UNION ALL
         SELECT recording_id, name, 0, NULL, raw FROM unlisted_analyses WHERE recording_id IN (${q.dialect.jsonValues('?', 'integer')})) AS answers
       ORDER BY recording_id, listed DESC, ${q.dialect.binary('name')}`,
    [ids, ids],
  );
  return rows.map((r) => ({ ...r, listed: r.listed === 1 }));
};
