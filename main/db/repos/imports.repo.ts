/**
 * An import committed as a batch: the batch, the participants that do not exist yet (without a service
 * account) and one recording per assigned file (the caller writes them with the batch's event in one
 * transaction).
 */
import type { UploadState } from '../../../shared/study';
import { DEFAULT_SITE } from '../../../shared/team';
import type { Queryable, SqlValue } from '../store/types';

export interface NewBatch {
  readonly studyId: number;
  readonly at: string;
  /** The analysis types, as stored (JSON). */
  readonly analyses: string;
  readonly isolateOldestSpeaker: boolean;
  readonly label: string;
  readonly convertWav: boolean;
  /** The site the batch's new participants are put at (study_sites.code); the default site if none. */
  readonly siteCode?: string | undefined;
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

/** Rows one statement writes at most; a write is cut into pieces of 64, 32, ... 1 rows, so a handful of statement texts serve every import. */
const PIECE = 64;

const pieces = <T>(rows: readonly T[]): T[][] => {
  const out: T[][] = [];
  let i = 0;
  for (let size = PIECE; size >= 1; size /= 2)
    while (rows.length - i >= size) {
      out.push(rows.slice(i, i + size));
      i += size;
    }
  return out;
};

/** The statement text for `n` rows, built once per size. */
const perSize = (build: (n: number) => string) => {
  const texts = new Map<number, string>();
  return (n: number) => {
    let sql = texts.get(n);
    if (sql === undefined) texts.set(n, (sql = build(n)));
    return sql;
  };
};

const placeholders = (n: number, perRow: number) =>
  Array.from({ length: n }, () => `(${Array.from({ length: perRow }, () => '?').join(', ')})`).join(', ');

const ADD_PARTICIPANTS = perSize(
  (n) =>
    `INSERT INTO participants (study_id, code, created_at, site_code) VALUES ${placeholders(n, 4)} ON CONFLICT (study_id, code) DO NOTHING`,
);

// A code merged into another participant (a participant entered twice, docs/curation.md) files its
// new recordings under the participant it was merged into.
const PARTICIPANT_IDS = perSize(
  (n) =>
    `SELECT code, COALESCE(merged_into, id) AS id FROM participants WHERE study_id = ? AND code IN (${Array.from({ length: n }, () => '?').join(', ')})`,
);

const RECORDING_COLUMNS = 22;
const ADD_RECORDINGS = perSize(
  (n) =>
    `INSERT INTO recordings (study_id, participant_id, batch_id, source_path, upload_path, content_sha256, size_bytes, format, channels,
       sample_rate_hz, duration_seconds, speech_estimate_seconds, converted, recorded_at, recorded_at_source, session_label,
       upload_state, upload_error, verdict, duplicate_of, duplicate_override, created_at)
     VALUES ${placeholders(n, RECORDING_COLUMNS)} RETURNING id, source_path`,
);

/** The participants the recordings name, added when they do not exist yet: each code's participant id. */
const ensureParticipants = async (
  q: Queryable,
  studyId: number,
  siteCode: string,
  at: string,
  recordings: readonly NewRecording[],
): Promise<Map<string, number>> => {
  const codes = [
    ...new Set(recordings.flatMap((r) => (r.participantCode === null ? [] : [r.participantCode]))),
  ];
  const ids = new Map<string, number>();
  for (const piece of pieces(codes)) {
    await q.run(
      ADD_PARTICIPANTS(piece.length),
      piece.flatMap((code) => [studyId, code, at, siteCode]),
    );
    const rows = await q.all<{ code: string; id: number }>(PARTICIPANT_IDS(piece.length), [
      studyId,
      ...piece,
    ]);
    for (const r of rows) ids.set(r.code, r.id);
  }
  return ids;
};

/**
 * Writes the batch, the participants it names that do not exist yet and its recordings; run it inside
 * the caller's transaction (with the batch's event, main/import/import-commit.ts). Recordings are
 * written many to a statement, in the plan's order; a file that duplicates another file of this import
 * is written after that file, so it can name it.
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
  const participantIds = await ensureParticipants(
    q,
    batch.studyId,
    batch.siteCode ?? DEFAULT_SITE.code,
    at,
    recordings,
  );
  const byState: Partial<Record<UploadState, number>> = {};
  /** Each written file's recording id, by path (a path written twice: the later one). */
  const planIds = new Map<string, number>();
  let waiting: { path: string; values: SqlValue[] }[] = [];
  const waitingPaths = new Set<string>();
  const write = async () => {
    for (const piece of pieces(waiting)) {
      const rows = await q.all<{ id: number; source_path: string }>(
        ADD_RECORDINGS(piece.length),
        piece.flatMap((w) => w.values),
      );
      for (const r of rows) if ((planIds.get(r.source_path) ?? 0) < r.id) planIds.set(r.source_path, r.id);
    }
    waiting = [];
    waitingPaths.clear();
  };
  for (const r of recordings) {
    const earlier = r.duplicateOf && r.duplicateOf.recordingId == null ? r.duplicateOf.path : null;
    if (earlier !== null && waitingPaths.has(earlier)) await write();
    const pid = r.participantCode === null ? undefined : participantIds.get(r.participantCode);
    if (pid === undefined) throw new Error(`The file ${r.sourcePath} names no participant.`);
    const dupOf = r.duplicateOf
      ? (r.duplicateOf.recordingId ?? planIds.get(r.duplicateOf.path) ?? null)
      : null;
    waiting.push({ path: r.sourcePath, values: recordingValues(batch.studyId, pid, batchId, at, r, dupOf) });
    waitingPaths.add(r.sourcePath);
    byState[r.state] = (byState[r.state] ?? 0) + 1;
  }
  await write();
  return { batchId, byState };
};

/** One recording's values, in ADD_RECORDINGS's column order. */
const recordingValues = (
  studyId: number,
  participantId: number,
  batchId: number,
  at: string,
  r: NewRecording,
  duplicateOf: number | null,
): SqlValue[] => [
  studyId,
  participantId,
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
  duplicateOf,
  r.duplicateOverride ? 1 : 0,
  at,
];
