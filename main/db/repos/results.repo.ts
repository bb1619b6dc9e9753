/**
 * Stores what a poll returned: each analysis type's state and, for completed types, every measure
 * value, in one transaction. A type already final is never overwritten by a later poll.
 */
import type { RecordingAnalysis } from '../../../shared/api/domain';
import { isFinalStatus } from '../../../shared/api/vocabulary';
import type { Db } from '../open';
import { stmt } from '../statements';
import { appendEvent } from './event-log.repo';

export const storeAnalysis = (
  db: Db,
  at: string,
  recordingId: number,
  result: RecordingAnalysis,
  nextPollAt: string | null,
): void =>
  db
    .transaction(() => {
      const rec = stmt(db, `SELECT participant_id, recorded_at, study_id FROM recordings WHERE id = ?`).get(
        recordingId,
      ) as { participant_id: number; recorded_at: string; study_id: number };
      const update = stmt(
        db,
        `UPDATE analyses SET state = ?, finished_at = ?, next_poll_at = ?, polls = polls + 1, last_polled_at = ?
       WHERE recording_id = ? AND type = ? AND state IN ('processing', 'timed_out')`,
      );
      const pollOnly = stmt(
        db,
        `UPDATE analyses SET polls = polls + 1, last_polled_at = ?, next_poll_at = ? WHERE recording_id = ? AND type = ? AND state IN ('processing', 'timed_out')`,
      );
      const putValue = stmt(
        db,
        `INSERT INTO measure_values (recording_id, measure_key, participant_id, recorded_at, value_num, value_text) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (recording_id, measure_key) DO UPDATE SET value_num = excluded.value_num, value_text = excluded.value_text`,
      );
      for (const o of result.outcomes) {
        if (!isFinalStatus(o.status)) {
          pollOnly.run(at, nextPollAt, recordingId, o.type);
          continue;
        }
        const changed = update.run(o.status, at, null, at, recordingId, o.type).changes;
        if (changed === 1 && o.status === 'completed') {
          for (const [key, v] of Object.entries(o.values)) {
            putValue.run(
              recordingId,
              key,
              rec.participant_id,
              rec.recorded_at,
              typeof v === 'number' ? v : null,
              typeof v === 'string' ? v : null,
            );
          }
        }
        if (changed === 1)
          appendEvent(
            db,
            at,
            'analysis_final',
            { studyId: rec.study_id, recordingId },
            { type: o.type, status: o.status, measures: Object.keys(o.values).length },
          );
      }
    })
    .immediate();
