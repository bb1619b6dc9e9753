/**
 * The study engine's long-running part, one per service profile: an upload lane (bounded concurrency,
 * an upload rate, pauses on organisation-wide refusals and rate limits) and a polling lane (the
 * persisted schedule of poll-schedule.ts), sharing one request budget so that a thousand pending
 * recordings never flood the service. All state that matters lives in the database: stopping,
 * crashing or sleeping and starting again resumes where it was. Uploads interrupted by a crash become
 * `upload_uncertain` at start and are never re-sent without the researcher.
 */
import type { ApiError } from '../../shared/api/api-error';
import { explainApiError } from '../../shared/api/api-error';
import type { Usage } from '../../shared/api/domain';
import { DEFAULT_QUEUE, type EngineEvent, type QueueSettings } from '../../shared/study';
import type { ApiClient } from '../api/client';
import type { Db } from '../db/open';
import { finishDrainedBatches, setBatchUsageAfter } from '../db/repos/batches.repo';
import { appendEvent } from '../db/repos/event-log.repo';
import { latestUsage, recordUsage } from '../db/repos/usage.repo';
import { deleteSetting, readSetting, writeSetting } from '../db/repos/settings.repo';
import { recoverInterruptedUploads } from '../db/repos/uploads.repo';
import { stmt } from '../db/statements';
import { clampPollSettings, createTokenBucket, type PollSettings } from '../jobs/poll-schedule';
import { nextDueAt, runPollStep } from './poll-step';
import { createProgressHub } from './progress';
import { nextQueued, uploadOne, type QueuePause } from './upload-step';

export interface RunnerOptions {
  readonly db: Db;
  readonly client: ApiClient;
  readonly profileId: number;
  readonly poll?: Partial<PollSettings>;
  readonly queue?: Partial<QueueSettings>;
  readonly now?: () => number;
  readonly random?: () => number;
  readonly onEvent?: (e: EngineEvent) => void;
  readonly progressIntervalMs?: number;
  /** Longest idle wait before the lanes look at the database again (changes made by another process). */
  readonly idleRecheckMs?: number;
}

export interface RunnerState {
  readonly running: boolean;
  readonly pause: { readonly reason: string; readonly error: ApiError | null; readonly untilMs: number | null } | null;
  readonly inFlight: number;
}

export interface QueueRunner {
  /** Recovers interrupted uploads, then runs both lanes until stop(). */
  start(): void;
  /** Stops taking new work and waits for requests in flight to settle (an upload is never abandoned mid-way). */
  stop(): Promise<void>;
  /** Something changed in the database (a batch started, files queued): look now. */
  wake(): void;
  /** The researcher pauses or resumes sending for this profile; polling for results goes on. */
  pause(reason?: string): void;
  resume(): void;
  state(): RunnerState;
  /** Resolves when nothing is queued or uploading on running batches and no result is awaited. */
  whenIdle(): Promise<void>;
}

const PAUSE_KEY = (profileId: number) => `queue_pause:${profileId}`;

export const createQueueRunner = (o: RunnerOptions): QueueRunner => {
  const { db, client, profileId } = o;
  const now = o.now ?? Date.now;
  const random = o.random ?? Math.random;
  const poll = clampPollSettings(o.poll ?? {});
  const queue: QueueSettings = {
    uploadConcurrency: Math.max(1, Math.floor(o.queue?.uploadConcurrency ?? DEFAULT_QUEUE.uploadConcurrency)),
    uploadsPerMinute: Math.max(1, o.queue?.uploadsPerMinute ?? DEFAULT_QUEUE.uploadsPerMinute),
  };
  const idleRecheckMs = o.idleRecheckMs ?? 5_000;
  const emit = o.onEvent ?? (() => {});
  const hub = createProgressHub(db, emit, o.progressIntervalMs ?? 250);
  const budget = createTokenBucket(poll.globalRatePerSecond, poll.globalBurst, now);
  const uploadRate = createTokenBucket(queue.uploadsPerMinute / 60, 1, now);
  const inFlight = new Map<number, Promise<void>>();
  let running = false;
  let lanes: Promise<void>[] = [];
  let pause: RunnerState['pause'] = null;
  const wakers = new Set<() => void>();
  const idleWaiters = new Set<() => void>();

  const iso = (ms: number) => new Date(ms).toISOString();

  /** Waits up to `ms`, or until wake() or stop(). */
  const nap = (ms: number) => new Promise<void>((resolve) => {
    const done = () => { clearTimeout(t); wakers.delete(done); resolve(); };
    const t = setTimeout(done, Math.max(0, Math.min(ms, 2 ** 31 - 1)));
    wakers.add(done);
  });
  /** Waits exactly `ms` unless stopped (a reserved request slot must not be used early). */
  const hold = async (ms: number) => {
    const until = now() + ms;
    while (running && now() < until) await nap(until - now());
  };
  const wake = () => { for (const w of [...wakers]) w(); };

  /** Only open-ended pauses (waiting for the researcher) outlive the process; a rate-limit pause ends by itself. */
  const savePause = () => {
    if (pause === null || pause.untilMs !== null) deleteSetting(db, PAUSE_KEY(profileId));
    else writeSetting(db, PAUSE_KEY(profileId), pause);
  };
  const setPause = (p: RunnerState['pause']) => {
    pause = p;
    savePause();
    if (p) {
      emit({ type: 'queue-paused', profileId, reason: p.reason, untilMs: p.untilMs });
      appendEvent(db, iso(now()), 'queue_paused', {}, { profile_id: profileId, kind: p.error?.kind ?? 'researcher', until: p.untilMs === null ? null : iso(p.untilMs) });
    } else emit({ type: 'queue-resumed', profileId });
  };

  const readUsage = async (): Promise<Usage | null> => {
    const wait = budget.reserve();
    if (wait > 0) await hold(wait);
    const res = await client.getUsage();
    if (!res.ok) return null;
    recordUsage(db, profileId, iso(now()), res.value);
    emit({ type: 'usage', profileId, usage: res.value });
    return res.value;
  };

  const onPause = (p: QueuePause) => {
    if (p.untilMs !== null) budget.pauseUntil(p.untilMs);
    if (pause && pause.untilMs === null) return; // an open-ended pause is already in force
    const e = explainApiError(p.error);
    setPause({ reason: `${e.summary} ${e.action}`, error: p.error, untilMs: p.untilMs });
  };

  /** What is known about an uncertain upload: the usage counters before and after it, for the researcher's decision. */
  const annotateUncertain = async (recordingId: number) => {
    const before = latestUsage(db, profileId)?.usage ?? null;
    const after = await readUsage();
    const row = stmt(db, `SELECT upload_error FROM recordings WHERE id = ?`).get(recordingId) as { upload_error: string | null } | undefined;
    const detail = row?.upload_error ? JSON.parse(row.upload_error) as Record<string, unknown> : {};
    stmt(db, `UPDATE recordings SET upload_error = ? WHERE id = ? AND upload_state = 'upload_uncertain'`)
      .run(JSON.stringify({ ...detail, usageBefore: before, usageAfter: after }), recordingId);
  };

  const settleBatches = async () => {
    const finished = finishDrainedBatches(db, profileId, iso(now()));
    if (finished.length === 0) return;
    for (const id of finished) hub.batchChanged(id);
    const usage = await readUsage();
    if (usage) setBatchUsageAfter(db, finished, usage);
  };

  const uploadLane = async () => {
    while (running) {
      if (pause && pause.untilMs !== null && now() >= pause.untilMs) setPause(null);
      if (pause) { await nap(pause.untilMs === null ? idleRecheckMs : pause.untilMs - now()); continue; }
      if (inFlight.size >= queue.uploadConcurrency) { await nap(idleRecheckMs); continue; }
      const [row] = nextQueued(db, profileId, 1, new Set(inFlight.keys()));
      if (!row) {
        if (inFlight.size === 0) await settleBatches();
        checkIdle();
        await nap(idleRecheckMs);
        continue;
      }
      const wait = Math.max(uploadRate.reserve(), budget.reserve());
      if (wait > 0) await hold(wait);
      if (!running || pause) continue;
      const task = (async () => {
        const out = await uploadOne(db, client, row, { now, firstPollAfterMs: poll.firstPollAfterMs });
        if (out.kind === 'paused') onPause(out.pause);
        if (out.kind === 'uncertain') await annotateUncertain(row.id);
        hub.recordingChanged(row.studyId, row.id, row.batchId);
      })().catch((e: unknown) => {
        // A programming or disk error, not a service answer: leave the row for recovery (it is `uploading`
        // only if the intent was committed, and then it becomes uncertain at the next start).
        console.error('upload task failed', e);
      }).finally(() => { inFlight.delete(row.id); wake(); });
      inFlight.set(row.id, task);
    }
  };

  const pollLane = async () => {
    while (running) {
      const due = nextDueAt(db, profileId);
      if (due === null) { checkIdle(); await nap(idleRecheckMs); continue; }
      if (due > now()) { await nap(Math.min(due - now(), idleRecheckMs)); continue; }
      const res = await runPollStep(db, client, { profileId, now, settings: poll, bucket: budget, random, sleep: hold, limit: poll.globalBurst });
      for (const c of res.changed) hub.recordingChanged(c.studyId, c.id, c.batchId);
    }
  };

  const isIdle = (): boolean => {
    if (inFlight.size > 0) return false;
    const r = stmt(db,
      `SELECT EXISTS (SELECT 1 FROM recordings r JOIN batches b ON b.id = r.batch_id JOIN studies s ON s.id = r.study_id
                      WHERE s.profile_id = ? AND b.state = 'running' AND r.upload_state IN ('queued', 'uploading')) AS uploads,
              EXISTS (SELECT 1 FROM analyses a JOIN recordings r ON r.id = a.recording_id JOIN studies s ON s.id = r.study_id
                      WHERE s.profile_id = ? AND a.state = 'processing') AS polls`,
    ).get(profileId, profileId) as { uploads: number; polls: number };
    return (r.uploads === 0 || pause !== null) && r.polls === 0;
  };
  const checkIdle = () => {
    if (idleWaiters.size === 0 || !isIdle()) return;
    hub.flush(); // the last progress goes out before anybody hears "idle"
    for (const w of [...idleWaiters]) { idleWaiters.delete(w); w(); }
  };

  return {
    start() {
      if (running) return;
      running = true;
      pause = readSetting<RunnerState['pause']>(db, PAUSE_KEY(profileId));
      const recovered = recoverInterruptedUploads(db, iso(now()));
      for (const id of recovered) {
        const r = stmt(db, `SELECT study_id, batch_id FROM recordings WHERE id = ?`).get(id) as { study_id: number; batch_id: number | null };
        hub.recordingChanged(r.study_id, id, r.batch_id);
      }
      lanes = [uploadLane(), pollLane()];
    },
    async stop() {
      running = false;
      wake();
      await Promise.all(lanes);
      await Promise.all(inFlight.values());
      hub.close();
      for (const w of idleWaiters) w();
      idleWaiters.clear();
    },
    wake,
    pause(reason) {
      setPause({ reason: reason ?? 'Sending paused by the researcher.', error: null, untilMs: null });
    },
    resume() {
      if (pause === null) return;
      setPause(null);
      wake();
    },
    state: () => ({ running, pause, inFlight: inFlight.size }),
    whenIdle: () => new Promise<void>((resolve) => {
      if (isIdle()) return resolve();
      idleWaiters.add(resolve);
    }),
  };
};
