/**
 * Stores what a poll returned: each analysis type's state and, for completed types, every measure
 * value, in one transaction. A type already final is never overwritten by a later poll.
 *
 * Everything else the answer held is kept too (migration 0080): each analysis object exactly as
 * received and its status member as received, the data-quality flags of each type still open and of
 * the recording's metadata (a poll replaces those it reads, so the flags describe what is stored), and
 * the analysis types the specification does not describe. Values that come with an analysis the service
 * has not marked completed (flagged `values_while_processing`) are kept in the analysis object as
 * received and in their flag, but are not results: they are not measure values, so timelines,
 * summaries and the export's value columns leave them out until the service says the analysis is
 * completed (docs/spec-decisions.md).
 *
 * An answer that settles a type (completed or error) but carries odd values for it is confirmed before
 * it becomes final: its raw form is stored with the next poll still set, and it is final when the next
 * answer is the same (a service that really sends that value says it again), or when a different answer
 * has no odd values, or after MAX_CONFIRMATIONS odd answers (the latest is kept: a paid-for result is
 * never discarded), or when no further poll is scheduled. A garbled answer (a broken proxy, a cut body)
 * so never becomes the study's result for good (docs/spec-decisions.md).
 */
import type { RecordingAnalysis } from '../../../shared/api/domain';
import { isFinalStatus } from '../../../shared/api/vocabulary';
import { ANALYSIS_STATES_POLLED } from '../../../shared/states';
import { sqlWords } from '../sql-words';
import type { Queryable } from '../store/types';
import { replaceFlags, storeUnlisted } from './data-quality.repo';
import { appendEvent } from './event-log.repo';

/** How many settling answers with odd values are asked about again before the latest is kept as it is. */
export const MAX_CONFIRMATIONS = 3;

const UPDATE_FINAL = `UPDATE analyses SET state = ?, finished_at = ?, next_poll_at = ?, polls = polls + 1, last_polled_at = ?,
         raw = ?, received_status = ?
       WHERE recording_id = ? AND type = ? AND state IN ${sqlWords(ANALYSIS_STATES_POLLED)}`;
const UPDATE_POLL_ONLY = `UPDATE analyses SET polls = polls + 1, last_polled_at = ?, next_poll_at = ?, raw = ?, received_status = ?
       WHERE recording_id = ? AND type = ? AND state IN ${sqlWords(ANALYSIS_STATES_POLLED)}`;
const SELECT_CURRENT = `SELECT raw, received_status, confirmations FROM analyses
       WHERE recording_id = ? AND type = ? AND state IN ${sqlWords(ANALYSIS_STATES_POLLED)}`;
const UPDATE_UNCONFIRMED = `UPDATE analyses SET polls = polls + 1, last_polled_at = ?, next_poll_at = ?, raw = ?, received_status = ?,
         confirmations = confirmations + 1
       WHERE recording_id = ? AND type = ? AND state IN ${sqlWords(ANALYSIS_STATES_POLLED)}`;
const PUT_VALUE = `INSERT INTO measure_values (recording_id, measure_key, participant_id, recorded_at, value_num, value_text) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (recording_id, measure_key) DO UPDATE SET value_num = excluded.value_num, value_text = excluded.value_text`;

/**
 * Stores one poll's answer. Run it in a transaction (`q` its handle): the poll step writes it together
 * with the schedule's verdict, and the answer's data-quality flags with it.
 */
export const storeAnalysis = async (
  q: Queryable,
  at: string,
  recordingId: number,
  result: RecordingAnalysis,
  nextPollAt: string | null,
): Promise<void> => {
  const rec = (await q.get<{ participant_id: number; recorded_at: string; study_id: number }>(
    `SELECT participant_id, recorded_at, study_id FROM recordings WHERE id = ?`,
    [recordingId],
  ))!;
  await replaceFlags(q, at, recordingId, 'poll', null, result.flags ?? []);
  await storeUnlisted(q, at, recordingId, result.unlisted ?? []);
  for (const o of result.outcomes) {
    const raw = o.raw ?? null;
    const status = o.receivedStatus ?? null;
    if (!isFinalStatus(o.status)) {
      if ((await q.run(UPDATE_POLL_ONLY, [at, nextPollAt, raw, status, recordingId, o.type])).changes === 1)
        await replaceFlags(q, at, recordingId, 'poll', o.type, o.flags ?? []);
      continue;
    }
    if ((o.flags ?? []).length > 0 && nextPollAt !== null) {
      const before = await q.get<{
        raw: string | null;
        received_status: string | null;
        confirmations: number;
      }>(SELECT_CURRENT, [recordingId, o.type]);
      const repeated = before !== undefined && before.raw === raw && before.received_status === status;
      if (before !== undefined && !repeated && before.confirmations < MAX_CONFIRMATIONS) {
        await q.run(UPDATE_UNCONFIRMED, [at, nextPollAt, raw, status, recordingId, o.type]);
        await replaceFlags(q, at, recordingId, 'poll', o.type, o.flags ?? []);
        continue;
      }
    }
    const changed = (await q.run(UPDATE_FINAL, [o.status, at, null, at, raw, status, recordingId, o.type]))
      .changes;
    if (changed === 1) await replaceFlags(q, at, recordingId, 'poll', o.type, o.flags ?? []);
    if (changed === 1 && o.status === 'completed') {
      for (const [key, v] of Object.entries(o.values)) {
        await q.run(PUT_VALUE, [
          recordingId,
          key,
          rec.participant_id,
          rec.recorded_at,
          typeof v === 'number' ? v : null,
          typeof v === 'string' ? v : null,
        ]);
      }
    }
    if (changed === 1)
      await appendEvent(
        q,
        at,
        'analysis_final',
        { studyId: rec.study_id, recordingId },
        {
          type: o.type,
          status: o.status,
          measures: o.status === 'completed' ? Object.keys(o.values).length : 0,
          flags: (o.flags ?? []).map((f) => f.code),
        },
      );
  }
};
