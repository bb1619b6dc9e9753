/**
 * One step of the poller: the recordings whose poll is due (up to `limit`, earliest first) are each
 * asked once for the analysis types still pending, every request within the global budget; the answer
 * is stored and the next poll scheduled by poll-schedule.ts. Each poll first takes its token (waiting
 * its turn), then claims the recording due longest (polls.repo.ts claimDuePoll: its next poll moved
 * the spec's 5 s on before the request goes), so workstations sharing the database never poll one
 * recording twice within 5 s; a token taken when nothing was left to claim is given back. A rate
 * limit holds everybody back; other failures leave the schedule to try again later. A failed poll
 * moves along the schedule like an answer saying `processing`: past the timeout the recording is
 * `timed_out` (re-checked slowly), and after the re-check period `unanswered`, so every recording
 * reaches an end state even when the service never answers (invariant: polls.repo.ts
 * strandedAnalyses). Ages are counted on the engine's clock (the database's on a shared database:
 * database-clock.ts) from the moment the upload was accepted. The schedule lives in the database, so
 * a restart resumes exactly where it stopped. A write that fails (disk full, read-only drive) ends the
 * step with that error: the answer is simply asked again later, since the service keeps it.
 */
import type { AnalysisType } from '../../shared/api/vocabulary';
import { iso } from '../../shared/iso';
import type { ApiClient } from '../api/client';
import type { Store } from '../db/store/types';
import {
  claimDuePoll,
  earliestPollAt,
  markTimedOut,
  markUnanswered,
  recordFailedPoll,
} from '../db/repos/polls.repo';
import { storeAnalysis } from '../db/repos/results.repo';
import { isConflictAbort } from '../db/store/retry';
import { nextPoll, SPEC_FLOOR_MS, type PollSettings, type RequestBudget } from '../jobs/poll-schedule';
import { MAX_RATE_LIMIT_PAUSE_MS } from './upload-step';

export interface PollStepResult {
  readonly polled: number;
  readonly failed: number;
  readonly timedOut: number;
  /** Analyses that reached `unanswered` in this step. */
  readonly unanswered: number;
  /** Recordings whose stored state changed, with their study. */
  readonly changed: readonly {
    readonly id: number;
    readonly studyId: number;
    readonly batchId: number | null;
  }[];
  /** A write to the database failed (the step stopped there); null when all went well. */
  readonly writeError: unknown;
}

/** The earliest scheduled poll on this profile (epoch ms), or null when nothing is waiting for results. */
export const nextDueAt = async (store: Store, profileId: number): Promise<number | null> => {
  const at = await earliestPollAt(store, profileId);
  return at === null ? null : Date.parse(at);
};

/**
 * The poll due longest by `dueBy` (the step's start), claimed for 5 s from `now`; null when none is left
 * (or another workstation won the race).
 */
const claimNext = async (store: Store, profileId: number, dueBy: number, now: number) => {
  try {
    return await claimDuePoll(store, profileId, iso(dueBy), iso(now + SPEC_FLOOR_MS));
  } catch (e) {
    if (isConflictAbort(e)) return null; // a deadlock with another workstation's write: claimed nothing
    throw e;
  }
};

export const runPollStep = async (
  store: Store,
  client: ApiClient,
  opts: {
    profileId: number;
    now: () => number;
    settings: PollSettings;
    bucket: RequestBudget;
    random: () => number;
    sleep: (ms: number) => Promise<void>;
    limit?: number;
  },
): Promise<PollStepResult> => {
  const dueBy = opts.now();
  let polled = 0,
    failed = 0,
    timedOut = 0,
    unanswered = 0;
  const changed: PollStepResult['changed'][number][] = [];
  for (let n = 0; n < (opts.limit ?? 1_000_000); n++) {
    const wait = await opts.bucket.reserve();
    if (wait > 0) await opts.sleep(wait);
    const row = await claimNext(store, opts.profileId, dueBy, opts.now());
    if (!row) {
      await opts.bucket.refund();
      break;
    }
    const types = row.types.split(',') as AnalysisType[];
    const answer = await client.getAnalysis(row.recording_id, types);
    // An answer about another recording (a confused proxy or cache) must never be stored under this one.
    const res =
      answer.ok && answer.value.recordingId.toLowerCase() !== row.recording_id.toLowerCase()
        ? { ok: false as const, error: { kind: 'OtherRecording' as const } }
        : answer;
    const at = opts.now();
    const next = nextPoll(
      { acceptedAtMs: Date.parse(row.accepted_at), lastPolledAtMs: at, nowMs: at },
      opts.settings,
      opts.random,
    );
    const nextIso = next.at === null ? null : new Date(next.at).toISOString();
    if (!res.ok) {
      failed++;
      if (res.error.kind === 'RateLimited')
        opts.bucket.pauseUntil(
          at + Math.min(res.error.retryAfterMs ?? opts.settings.intervalMs, MAX_RATE_LIMIT_PAUSE_MS),
        );
    }
    try {
      const unreadable =
        !res.ok && 'endpoint' in res.error ? { studyId: row.study_id, error: res.error } : undefined;
      // The answer (or the failed poll) and the schedule's verdict are written together.
      // Nothing but the database inside: safe to run again after a serialisation failure.
      const marked = await store.transaction(
        async (tx) => {
          const atIso = new Date(at).toISOString();
          if (res.ok) await storeAnalysis(tx, atIso, row.id, res.value, nextIso);
          else await recordFailedPoll(tx, row.id, nextIso, atIso, unreadable);
          return {
            timedOut: next.phase === 'timed_out' ? await markTimedOut(tx, row.id) : 0,
            unanswered: next.phase === 'unanswered' ? await markUnanswered(tx, row.id, atIso) : 0,
          };
        },
        { repeatable: true },
      );
      timedOut += marked.timedOut;
      unanswered += marked.unanswered;
      if (res.ok) polled++;
    } catch (writeError) {
      // Nothing of this answer was stored (one transaction); the poll stays due and is asked again.
      return { polled, failed, timedOut, unanswered, changed, writeError };
    }
    changed.push({ id: row.id, studyId: row.study_id, batchId: row.batch_id });
  }
  return { polled, failed, timedOut, unanswered, changed, writeError: null };
};
