/** Batch state and progress counts, as the UI and the command line show them. */
import type { Usage } from '../../../shared/api/domain';
import type { AnalysisState, BatchProgress, BatchState, UploadState } from '../../../shared/study';
import { UPLOAD_STATES_IN_PROGRESS, UPLOAD_STATES_WAITING } from '../../../shared/states';
import { sqlWords } from '../sql-words';
import type { Dialect } from '../store/dialect';
import type { Queryable, Store } from '../store/types';
import { appendEvent } from './event-log.repo';
import { batchAnalyses } from './recording-columns';

interface BatchRow {
  id: number;
  study_id: number;
  label: string;
  state: BatchState;
  created_at: string;
  analyses: string;
  pause_reason: string | null;
}

export const batchProgress = async (q: Queryable, batchId: number): Promise<BatchProgress | null> => {
  const b = await q.get<BatchRow>(
    `SELECT id, study_id, label, state, created_at, analyses, pause_reason FROM batches WHERE id = ?`,
    [batchId],
  );
  if (!b) return null;
  const uploads: Partial<Record<UploadState, number>> = {};
  let total = 0;
  for (const r of await q.all<{ s: UploadState; n: number }>(
    `SELECT upload_state s, count(*) n FROM recordings WHERE batch_id = ? GROUP BY 1`,
    [batchId],
  )) {
    uploads[r.s] = r.n;
    total += r.n;
  }
  // Of the refused_locally ones, the borderline files the researcher did not choose to send: held, not refused.
  const held = (await q.get<{ n: number }>(
    `SELECT count(*) n FROM recordings WHERE batch_id = ? AND upload_state = 'refused_locally'
       AND ${q.dialect.jsonText('verdict', 'status')} = 'borderline'`,
    [batchId],
  ))!;
  const analysesByState: Partial<Record<AnalysisState, number>> = {};
  for (const r of await q.all<{ s: AnalysisState; n: number }>(
    `SELECT a.state s, count(*) n FROM analyses a JOIN recordings r ON r.id = a.recording_id WHERE r.batch_id = ? GROUP BY 1`,
    [batchId],
  )) {
    analysesByState[r.s] = r.n;
  }
  const clock = (await q.get<{ offset: number | null }>(
    `SELECT avg(${q.dialect.secondsBetween('accepted_at', 'uploaded_at')}) AS offset FROM recordings
     WHERE batch_id = ? AND upload_state = 'uploaded' AND uploaded_at IS NOT NULL AND accepted_at IS NOT NULL`,
    [batchId],
  ))!;
  return {
    batchId: b.id,
    studyId: b.study_id,
    label: b.label,
    state: b.state,
    createdAt: b.created_at,
    analyses: batchAnalyses.decode(b.analyses),
    uploads,
    heldBorderline: held.n,
    analysesByState,
    total,
    pauseReason: b.pause_reason,
    serviceClockOffsetSeconds: clock.offset === null ? null : Math.round(clock.offset),
  };
};

export const batchesOfStudy = async (q: Queryable, studyId: number): Promise<BatchProgress[]> => {
  const out: BatchProgress[] = [];
  for (const r of await q.all<{ id: number }>(`SELECT id FROM batches WHERE study_id = ? ORDER BY id`, [
    studyId,
  ]))
    out.push((await batchProgress(q, r.id))!);
  return out;
};

const TRANSITIONS: Record<
  'start' | 'pause' | 'resume' | 'cancel',
  {
    from: BatchState[];
    to: BatchState;
    event: 'batch_started' | 'batch_paused' | 'batch_resumed' | 'batch_cancelled';
  }
> = {
  start: { from: ['open', 'paused'], to: 'running', event: 'batch_started' },
  pause: { from: ['open', 'running'], to: 'paused', event: 'batch_paused' },
  // An open batch (imported without starting, or interrupted before its start) can be resumed too.
  resume: { from: ['paused', 'open'], to: 'running', event: 'batch_resumed' },
  cancel: { from: ['open', 'running', 'paused'], to: 'cancelled', event: 'batch_cancelled' },
};

/**
 * Moves a batch; returns false when the move does not apply (e.g. resuming a finished batch).
 * Cancelling withdraws every file not yet sent; uploads already in flight finish and their analyses
 * are still collected, because they are charged.
 */
export const moveBatch = (
  store: Store,
  batchId: number,
  move: keyof typeof TRANSITIONS,
  at: string,
  extra: { usageBefore?: Usage; reason?: string } = {},
): Promise<boolean> =>
  store.transaction(
    async (tx) => {
      const t = TRANSITIONS[move];
      const b = await tx.get<{ study_id: number; state: BatchState }>(
        `SELECT study_id, state FROM batches WHERE id = ?`,
        [batchId],
      );
      if (!b || !t.from.includes(b.state)) return false;
      await tx.run(
        `UPDATE batches SET state = ?, pause_reason = ?, usage_before = coalesce(?, usage_before) WHERE id = ?`,
        [
          t.to,
          move === 'pause' ? (extra.reason ?? 'Paused by the researcher.') : null,
          extra.usageBefore ? JSON.stringify(extra.usageBefore) : null,
          batchId,
        ],
      );
      if (move === 'cancel') {
        await tx.run(
          `UPDATE recordings SET upload_state = 'cancelled' WHERE batch_id = ? AND upload_state IN ('queued', 'pending', 'duplicate')`,
          [batchId],
        );
      }
      await appendEvent(tx, at, t.event, { studyId: b.study_id }, { batch_id: batchId });
      return true;
    },
    { repeatable: true },
  );

/** Running batches of a profile whose files have all been sent (or settled): they become finished. A file still
 * pending (its participant has no account yet) keeps its batch running: nothing of it was sent. */
/**
 * A batch is whole to a login that sees as many of its recordings as its import made (the
 * `batch_created` event, which every member of the study reads): a coordinator sees only their sites'.
 */
const SEEN_WHOLE = (d: Dialect) => `(SELECT count(*) FROM recordings r WHERE r.batch_id = b.id) =
  (SELECT CAST(${d.jsonText('e.detail', 'recordings')} AS ${d.integerType}) FROM event_log e
    WHERE e.kind = 'batch_created' AND e.study_id = b.study_id
      AND CAST(${d.jsonText('e.detail', 'batch_id')} AS ${d.integerType}) = b.id)`;

/**
 * Running batches with nothing left in progress become finished. `seesPartOfStudy`: the login sees only
 * some sites (row-level security), so only batches it sees whole are finished here.
 */
export const finishDrainedBatches = (
  store: Store,
  profileId: number,
  at: string,
  seesPartOfStudy = false,
): Promise<number[]> =>
  store.transaction(
    async (tx) => {
      const done = await tx.all<{ id: number; study_id: number }>(
        `SELECT b.id, b.study_id FROM batches b JOIN studies s ON s.id = b.study_id
       WHERE s.profile_id = ? AND b.state = 'running'
         AND NOT EXISTS (SELECT 1 FROM recordings r WHERE r.batch_id = b.id AND r.upload_state IN ${sqlWords(UPLOAD_STATES_IN_PROGRESS)})
         ${seesPartOfStudy ? `AND ${SEEN_WHOLE(tx.dialect)}` : ''}`,
        [profileId],
      );
      for (const b of done) {
        await tx.run(`UPDATE batches SET state = 'finished' WHERE id = ?`, [b.id]);
        await appendEvent(tx, at, 'batch_finished', { studyId: b.study_id }, { batch_id: b.id });
      }
      return done.map((b) => b.id);
    },
    { repeatable: true },
  );

export const setBatchUsageAfter = async (
  q: Queryable,
  batchIds: readonly number[],
  usage: Usage,
): Promise<void> => {
  for (const id of batchIds)
    await q.run(`UPDATE batches SET usage_after = ? WHERE id = ?`, [JSON.stringify(usage), id]);
};

const finishedBatchesOf = (
  d: Dialect,
): string => `SELECT DISTINCT b.id, b.study_id FROM batches b JOIN recordings r ON r.batch_id = b.id
     WHERE r.id IN (${d.jsonValues('?', 'integer')}) AND b.state = 'finished' AND r.upload_state IN ${sqlWords(UPLOAD_STATES_WAITING)}`;
const REOPEN_BATCH = `UPDATE batches SET state = 'running' WHERE id = ? AND state = 'finished'`;

/**
 * A finished batch runs again when one of its files is queued again (a retry, a decision on an
 * uncertain upload, a duplicate sent anyway): the queue only sends files of running batches. Run it in
 * the transaction that queued the files.
 */
export const reopenBatchesOf = async (
  q: Queryable,
  recordingIds: readonly number[],
  at: string,
): Promise<number[]> => {
  const reopened = await q.all<{ id: number; study_id: number }>(finishedBatchesOf(q.dialect), [
    JSON.stringify(recordingIds),
  ]);
  for (const b of reopened) {
    await q.run(REOPEN_BATCH, [b.id]);
    await appendEvent(q, at, 'batch_reopened', { studyId: b.study_id }, { batch_id: b.id });
  }
  return reopened.map((b) => b.id);
};

/**
 * Batches imported to be started whose start never happened (the process stopped between the import and
 * the start): still `open`, with the start intent written at import. All studies when `studyId` is null.
 */
export const interruptedStarts = (
  q: Queryable,
  studyId: number | null,
): Promise<{ id: number; studyId: number }[]> =>
  q.all<{ id: number; studyId: number }>(
    `SELECT id, study_id AS "studyId" FROM batches
     WHERE state = 'open' AND start_requested_at IS NOT NULL AND (${q.dialect.param('integer')} IS NULL OR study_id = ?) ORDER BY id`,
    [studyId, studyId],
  );

/** The study a batch belongs to; null when there is no such batch. */
export const batchStudyId = async (q: Queryable, batchId: number): Promise<number | null> =>
  (await q.get<{ study_id: number }>(`SELECT study_id FROM batches WHERE id = ?`, [batchId]))?.study_id ??
  null;

/** Recordings of the batch that starting it would send (queued, or waiting for an account). */
export const plannedUploadCount = async (q: Queryable, batchId: number): Promise<number> =>
  (await q.get<{ n: number }>(
    `SELECT count(*) n FROM recordings WHERE batch_id = ? AND upload_state IN ${sqlWords(UPLOAD_STATES_WAITING)}`,
    [batchId],
  ))!.n;
