/**
 * One step of the poller: every recording with an analysis type due for a poll is asked once for the
 * types still pending, within the global request budget; the answer is stored and the next poll is
 * scheduled by poll-schedule.ts. A rate limit holds everybody back; other failures leave the
 * schedule to try again later.
 */
import type { AnalysisType } from '../../shared/api/vocabulary';
import type { ApiClient } from '../api/client';
import type { Db } from '../db/open';
import { storeAnalysis } from '../db/repos/results.repo';
import { nextPoll, type PollSettings, type TokenBucket } from '../jobs/poll-schedule';

export interface PollStepResult {
  readonly polled: number;
  readonly failed: number;
  readonly timedOut: number;
}

interface DueRow { id: number; recording_id: string; uploaded_at: string; last_polled_at: string | null; types: string }

export const runPollStep = async (
  db: Db,
  client: ApiClient,
  opts: { studyId: number; now: () => number; settings: PollSettings; bucket: TokenBucket; random: () => number; sleep: (ms: number) => Promise<void> },
): Promise<PollStepResult> => {
  const nowIso = new Date(opts.now()).toISOString();
  const due = db.prepare(
    `SELECT r.id, r.recording_id, r.uploaded_at, max(a.last_polled_at) AS last_polled_at, group_concat(a.type) AS types
     FROM analyses a JOIN recordings r ON r.id = a.recording_id
     WHERE r.study_id = ? AND a.next_poll_at IS NOT NULL AND a.next_poll_at <= ? AND a.state IN ('processing', 'timed_out')
     GROUP BY r.id ORDER BY min(a.next_poll_at)`,
  ).all(opts.studyId, nowIso) as DueRow[];
  let polled = 0, failed = 0, timedOut = 0;
  for (const row of due) {
    const wait = opts.bucket.reserve();
    if (wait > 0) await opts.sleep(wait);
    const types = row.types.split(',') as AnalysisType[];
    const res = await client.getAnalysis(row.recording_id, types);
    const at = opts.now();
    const uploadedAtMs = Date.parse(row.uploaded_at);
    const next = nextPoll({ uploadedAtMs, lastPolledAtMs: at, nowMs: at }, opts.settings, opts.random);
    const nextIso = next.at === null ? null : new Date(next.at).toISOString();
    if (!res.ok) {
      failed++;
      if (res.error.kind === 'RateLimited') opts.bucket.pauseUntil(at + (res.error.retryAfterMs ?? opts.settings.intervalMs));
      db.prepare(`UPDATE analyses SET next_poll_at = ?, polls = polls + 1, last_polled_at = ? WHERE recording_id = ? AND state IN ('processing', 'timed_out')`)
        .run(nextIso, new Date(at).toISOString(), row.id);
      continue;
    }
    polled++;
    storeAnalysis(db, new Date(at).toISOString(), row.id, res.value, nextIso);
    if (next.phase !== 'normal') {
      timedOut += db.prepare(`UPDATE analyses SET state = 'timed_out' WHERE recording_id = ? AND state = 'processing'`).run(row.id).changes;
    }
  }
  return { polled, failed, timedOut };
};
