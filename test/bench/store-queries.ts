/**
 * Three representative queries of today's repositories, each written twice for the store bench: as
 * plain SQL through the store (what differs taken from the dialect) and through Kysely. Today's
 * version is the repository function itself (main/db/repos/).
 */
import { type Kysely, sql, type Generated } from 'kysely';
import { ANALYSIS_STATES_POLLED } from '../../shared/states';
import { sqlWords } from '../../main/db/sql-words';
import type { Queryable } from '../../main/db/store/types';

interface RecordingsTable {
  id: Generated<number>;
  study_id: number;
  participant_id: number;
  batch_id: number | null;
  source_path: string;
  upload_path: string | null;
  content_sha256: string;
  size_bytes: number;
  format: string | null;
  recorded_at: string;
  recorded_at_source: string;
  session_label: string | null;
  upload_state: string;
  api_version: string | null;
  result_source: string | null;
  converted: Generated<number>;
  svc_speech_seconds: number | null;
  speech_estimate_seconds: number | null;
  verdict: string | null;
  excluded_at: string | null;
  excluded_reason: string | null;
  recording_id: string | null;
  accepted_at: string | null;
  uploaded_at: string | null;
  created_at: string;
}
interface StudyTables {
  recordings: RecordingsTable;
  batches: { id: number; isolate_oldest_speaker: number };
  analyses: { recording_id: number; type: string; state: string; next_poll_at: string | null };
  studies: { id: number; profile_id: number | null };
}
export type StudyKysely = Kysely<StudyTables>;

// The participant timeline's sessions (timeline.repo.ts, timelineSessions).
const TIMELINE = `SELECT r.id, r.recorded_at, r.session_label, r.api_version, r.result_source, r.converted, r.svc_speech_seconds, r.speech_estimate_seconds,
       r.verdict, b.isolate_oldest_speaker AS isolate, r.excluded_at, r.excluded_reason
  FROM recordings r LEFT JOIN batches b ON b.id = r.batch_id
  WHERE r.participant_id = ? AND r.upload_state = 'uploaded' AND r.api_version IS NOT NULL
  ORDER BY r.recorded_at, r.id`;
export const timelinePlain = (q: Queryable, participantId: number) => q.all(TIMELINE, [participantId]);
export const timelineKysely = (k: StudyKysely, participantId: number) =>
  k
    .selectFrom('recordings as r')
    .leftJoin('batches as b', 'b.id', 'r.batch_id')
    .select([
      'r.id',
      'r.recorded_at',
      'r.session_label',
      'r.api_version',
      'r.result_source',
      'r.converted',
      'r.svc_speech_seconds',
      'r.speech_estimate_seconds',
      'r.verdict',
      'b.isolate_oldest_speaker as isolate',
      'r.excluded_at',
      'r.excluded_reason',
    ])
    .where('r.participant_id', '=', participantId)
    .where('r.upload_state', '=', 'uploaded')
    .where('r.api_version', 'is not', null)
    .orderBy('r.recorded_at')
    .orderBy('r.id')
    .execute();

// The scheduler's due polls (polls.repo.ts, duePolls).
const duePollsSql = (
  q: Queryable,
) => `SELECT r.id, r.study_id, r.batch_id, r.recording_id, coalesce(r.accepted_at, r.uploaded_at) AS accepted_at,
       ${q.dialect.groupConcat('a.type')} AS types
  FROM analyses a JOIN recordings r ON r.id = a.recording_id JOIN studies s ON s.id = r.study_id
  WHERE s.profile_id = ? AND a.next_poll_at IS NOT NULL AND a.next_poll_at <= ? AND a.state IN ${sqlWords(ANALYSIS_STATES_POLLED)}
  GROUP BY r.id ORDER BY min(a.next_poll_at) LIMIT ?`;
export const duePollsPlain = (q: Queryable, profileId: number, now: string, limit: number) =>
  q.all(duePollsSql(q), [profileId, now, limit]);
export const duePollsKysely = (
  k: StudyKysely,
  engine: 'sqlite' | 'postgres',
  profileId: number,
  now: string,
  limit: number,
) =>
  k
    .selectFrom('analyses as a')
    .innerJoin('recordings as r', 'r.id', 'a.recording_id')
    .innerJoin('studies as s', 's.id', 'r.study_id')
    .select((e) => [
      'r.id',
      'r.study_id',
      'r.batch_id',
      'r.recording_id',
      e.fn.coalesce('r.accepted_at', 'r.uploaded_at').as('accepted_at'),
      (engine === 'sqlite' ? sql<string>`group_concat(a.type)` : sql<string>`string_agg(a.type, ',')`).as(
        'types',
      ),
    ])
    .where('s.profile_id', '=', profileId)
    .where('a.next_poll_at', 'is not', null)
    .where('a.next_poll_at', '<=', now)
    .where('a.state', 'in', [...ANALYSIS_STATES_POLLED])
    .groupBy('r.id')
    .orderBy(sql`min(a.next_poll_at)`)
    .limit(limit)
    .execute();

// The import commit's insert of one recording per file (imports.repo.ts, commit), 1,000 in one transaction.
export interface ImportedFile {
  readonly participantId: number;
  readonly path: string;
  readonly sha256: string;
}
const IMPORT_COLUMNS = [
  'study_id',
  'participant_id',
  'batch_id',
  'source_path',
  'upload_path',
  'content_sha256',
  'size_bytes',
  'format',
  'recorded_at',
  'recorded_at_source',
  'session_label',
  'upload_state',
  'created_at',
] as const;
const INSERT = `INSERT INTO recordings (${IMPORT_COLUMNS.join(', ')}) VALUES (${IMPORT_COLUMNS.map(() => '?').join(', ')})`;
const rowOf = (f: ImportedFile) => ({
  study_id: 1,
  participant_id: f.participantId,
  batch_id: 1,
  source_path: f.path,
  upload_path: null,
  content_sha256: f.sha256,
  size_bytes: 1000,
  format: 'wav',
  recorded_at: '2026-05-01T10:00:00.000Z',
  recorded_at_source: 'manifest',
  session_label: null,
  upload_state: 'queued',
  created_at: '2026-05-01T10:00:00.000Z',
});
export const importPlain = (
  q: Queryable & { transaction: (fn: (tx: Queryable) => Promise<void>) => Promise<void> },
  files: readonly ImportedFile[],
) =>
  q.transaction(async (tx) => {
    for (const f of files) await tx.run(INSERT, Object.values(rowOf(f)));
  });
export const importKysely = (k: StudyKysely, files: readonly ImportedFile[]) =>
  k.transaction().execute(async (trx) => {
    for (const f of files) await trx.insertInto('recordings').values(rowOf(f)).execute();
  });
/** Today's import commit, synchronous on better-sqlite3 (the same statement). */
export const importToday = (
  db: { prepare(sql: string): { run(...p: unknown[]): unknown }; transaction(fn: () => void): () => void },
  files: readonly ImportedFile[],
) => {
  const ins = db.prepare(INSERT);
  db.transaction(() => {
    for (const f of files) ins.run(...Object.values(rowOf(f)));
  })();
};
