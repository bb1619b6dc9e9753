/**
 * The study engine's long-running part, one per service profile: an upload lane (bounded concurrency,
 * an upload rate, pauses on organisation-wide refusals and rate limits) and a polling lane (the
 * persisted schedule of poll-schedule.ts), sharing one request budget so that a thousand pending
 * recordings never flood the service. All state that matters lives in the database: stopping,
 * crashing or sleeping and starting again resumes where it was. Uploads interrupted by a crash become
 * `upload_uncertain` at start and are never re-sent without the researcher.
 *
 * A database that cannot be written (disk full, read-only or failing drive, a lock held too long)
 * neither crashes the engine nor loses a charged upload: both lanes stop with the researcher-facing
 * reason (db-errors.ts), outcomes already answered by the service are kept in memory and written
 * first when work resumes, and their rows stay `uploading`, which a restart turns into
 * `upload_uncertain`, never into a second upload.
 */
import type { ApiError } from '../../shared/api/api-error';
import { explainApiError } from '../../shared/api/api-error';
import type { Usage } from '../../shared/api/domain';
import { DEFAULT_QUEUE, type EngineEvent, type QueueSettings } from '../../shared/study';
import type { ApiClient } from '../api/client';
import { classifyDbError, describeDbProblem, type DbProblem } from '../db/db-errors';
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
import {
  nextQueued,
  uploadOne,
  type OpenAudio,
  type QueuedRecording,
  type QueuePause,
  type UploadOneOutcome,
} from './upload-step';

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
  /** After the database was found locked by another program, work resumes by itself this much later. */
  readonly busyRetryMs?: number;
  /** How files are opened for sending (default: from disk). */
  readonly openAudio?: OpenAudio;
}

export interface RunnerState {
  readonly running: boolean;
  readonly pause: {
    readonly reason: string;
    readonly error: ApiError | null;
    readonly untilMs: number | null;
    /** Set when the pause is the database's: it stops polling too, and is never persisted (it could not be). */
    readonly storage?: DbProblem | undefined;
  } | null;
  readonly inFlight: number;
  /** Uploads the service answered whose outcome is not written yet (written first when work resumes). */
  readonly unrecorded: number;
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

type Unrecorded = Extract<UploadOneOutcome, { kind: 'unrecorded' }>;

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
  const busyRetryMs = o.busyRetryMs ?? 10_000;
  const emit = o.onEvent ?? (() => {});
  const hub = createProgressHub(db, emit, o.progressIntervalMs ?? 250);
  const budget = createTokenBucket(poll.globalRatePerSecond, poll.globalBurst, now);
  const uploadRate = createTokenBucket(queue.uploadsPerMinute / 60, 1, now);
  const inFlight = new Map<number, Promise<void>>();
  let running = false;
  let stopping: Promise<void> | null = null;
  let lanes: Promise<void>[] = [];
  let pause: RunnerState['pause'] = null;
  const wakers = new Set<() => void>();
  const idleWaiters = new Set<() => void>();
  /** Answered uploads whose outcome could not be written yet, by recording. */
  const unrecorded = new Map<number, { row: QueuedRecording; out: Unrecorded }>();

  const iso = (ms: number) => new Date(ms).toISOString();

  /** Waits up to `ms`, or until wake() or stop(). */
  const nap = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(t);
        wakers.delete(done);
        resolve();
      };
      const t = setTimeout(done, Math.max(0, Math.min(ms, 2 ** 31 - 1)));
      wakers.add(done);
    });
  /** Waits exactly `ms` unless stopped (a reserved request slot must not be used early). */
  const hold = async (ms: number) => {
    const until = now() + ms;
    while (running && now() < until) await nap(until - now());
  };
  const wake = () => {
    for (const w of [...wakers]) w();
  };

  /**
   * Only open-ended pauses (waiting for the researcher) outlive the process; a rate-limit pause ends by
   * itself, and a database pause is found again at the next start if the database still fails.
   */
  const savePause = () => {
    if (pause?.storage) return;
    if (pause === null || pause.untilMs !== null) deleteSetting(db, PAUSE_KEY(profileId));
    else writeSetting(db, PAUSE_KEY(profileId), pause);
  };
  /** The pause in memory rules; writing it down is best effort (the database may be what failed). */
  const setPause = (p: RunnerState['pause']) => {
    pause = p;
    if (p) emit({ type: 'queue-paused', profileId, reason: p.reason, untilMs: p.untilMs });
    else emit({ type: 'queue-resumed', profileId });
    try {
      savePause();
      if (p) {
        const kind = p.storage ? p.storage.code : (p.error?.kind ?? 'researcher');
        appendEvent(
          db,
          iso(now()),
          'queue_paused',
          {},
          { profile_id: profileId, kind, until: p.untilMs === null ? null : iso(p.untilMs) },
        );
      }
    } catch (e) {
      console.error('queue runner: the pause could not be written down', e);
    }
  };

  /**
   * Something the engine did failed with an exception. A database problem stops both lanes with its
   * reason until the researcher resumes (a lock: for a few seconds); anything else is logged and the
   * lanes carry on after a short wait (it is a defect, and the database keeps every state that matters).
   */
  const onFailure = (e: unknown, where: string) => {
    const problem = classifyDbError(e, { dbPath: db.name });
    console.error(
      `queue runner: ${where} failed:`,
      problem ? `${problem.sqliteCode ?? problem.code}: ${problem.message}` : e,
    );
    if (!problem || pause?.storage) return;
    const stopped = problem.retryable
      ? 'Sending and polling wait a few seconds.'
      : 'Sending and polling are paused until you resume.';
    setPause({
      reason: describeDbProblem(problem, stopped),
      error: null,
      untilMs: problem.retryable ? now() + busyRetryMs : null,
      storage: problem,
    });
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
    if (pause && (pause.untilMs === null || pause.storage)) return; // an open-ended or database pause is already in force
    const e = explainApiError(p.error);
    setPause({ reason: `${e.summary} ${e.action}`, error: p.error, untilMs: p.untilMs });
  };

  /** What is known about an uncertain upload: the usage counters before and after it, for the researcher's decision. */
  const annotateUncertain = async (recordingId: number) => {
    const before = latestUsage(db, profileId)?.usage ?? null;
    const after = await readUsage();
    const row = stmt(db, `SELECT upload_error FROM recordings WHERE id = ?`).get(recordingId) as
      { upload_error: string | null } | undefined;
    const detail = row?.upload_error ? (JSON.parse(row.upload_error) as Record<string, unknown>) : {};
    stmt(db, `UPDATE recordings SET upload_error = ? WHERE id = ? AND upload_state = 'upload_uncertain'`).run(
      JSON.stringify({ ...detail, usageBefore: before, usageAfter: after }),
      recordingId,
    );
  };

  const settleBatches = async () => {
    const finished = finishDrainedBatches(db, profileId, iso(now()));
    if (finished.length === 0) return;
    for (const id of finished) hub.batchChanged(id);
    const usage = await readUsage();
    if (usage) setBatchUsageAfter(db, finished, usage);
  };

  /** What the runner does with an upload's outcome once it is written (or keeps it to write later). */
  const afterOutcome = async (row: QueuedRecording, out: UploadOneOutcome) => {
    if (out.kind === 'unrecorded') {
      unrecorded.set(row.id, { row, out });
      // In the log too, so that what the service answered survives even if the process does not.
      console.error(
        `queue runner: recording ${row.id} was sent and ${out.answer}, but that could not be saved yet`,
      );
      onFailure(out.error, `saving the outcome of recording ${row.id}`);
      return;
    }
    if (out.kind === 'paused') onPause(out.pause);
    if (out.kind === 'uncertain') await annotateUncertain(row.id);
    hub.recordingChanged(row.studyId, row.id, row.batchId);
  };

  /** Writes the outcomes kept in memory, oldest first; false if the database still refuses. */
  const writeUnrecorded = async (): Promise<boolean> => {
    for (const [id, { row, out }] of [...unrecorded]) {
      const next = out.retry();
      if (next.kind === 'unrecorded') {
        unrecorded.set(id, { row, out: next });
        onFailure(next.error, `saving the outcome of recording ${id}`);
        return false;
      }
      unrecorded.delete(id);
      await afterOutcome(row, next);
    }
    return true;
  };

  /** Rows left `uploading` by an earlier process become uncertain; until that is written, nothing is sent. */
  let recovered = false;
  const recover = () => {
    for (const id of recoverInterruptedUploads(db, iso(now()))) {
      const r = stmt(db, `SELECT study_id, batch_id FROM recordings WHERE id = ?`).get(id) as {
        study_id: number;
        batch_id: number | null;
      };
      hub.recordingChanged(r.study_id, id, r.batch_id);
    }
    recovered = true;
  };

  const expirePause = () => {
    if (pause && pause.untilMs !== null && now() >= pause.untilMs) setPause(null);
  };

  const uploadStep = async () => {
    expirePause();
    if (pause) {
      await nap(pause.untilMs === null ? idleRecheckMs : pause.untilMs - now());
      return;
    }
    if (!recovered) recover();
    if (unrecorded.size > 0 && !(await writeUnrecorded())) {
      await nap(idleRecheckMs);
      return;
    }
    if (inFlight.size >= queue.uploadConcurrency) {
      await nap(idleRecheckMs);
      return;
    }
    const [row] = nextQueued(db, profileId, 1, new Set(inFlight.keys()));
    if (!row) {
      if (inFlight.size === 0) await settleBatches();
      checkIdle();
      await nap(idleRecheckMs);
      return;
    }
    const wait = Math.max(uploadRate.reserve(), budget.reserve());
    if (wait > 0) await hold(wait);
    if (!running || pause) return;
    const task = (async () => {
      // Throws only before anything is sent (the intent could not be written): the row stays queued.
      const out = await uploadOne(db, client, row, {
        now,
        firstPollAfterMs: poll.firstPollAfterMs,
        ...(o.openAudio ? { openAudio: o.openAudio } : {}),
      });
      await afterOutcome(row, out);
    })()
      .catch((e: unknown) => onFailure(e, `sending recording ${row.id}`))
      .finally(() => {
        inFlight.delete(row.id);
        wake();
      });
    inFlight.set(row.id, task);
  };

  const pollStep = async () => {
    expirePause();
    if (pause?.storage) {
      await nap(pause.untilMs === null ? idleRecheckMs : pause.untilMs - now());
      return;
    }
    const due = nextDueAt(db, profileId);
    if (due === null) {
      checkIdle();
      await nap(idleRecheckMs);
      return;
    }
    if (due > now()) {
      await nap(Math.min(due - now(), idleRecheckMs));
      return;
    }
    const res = await runPollStep(db, client, {
      profileId,
      now,
      settings: poll,
      bucket: budget,
      random,
      sleep: hold,
      limit: poll.globalBurst,
    });
    for (const c of res.changed) hub.recordingChanged(c.studyId, c.id, c.batchId);
    if (res.writeError !== null) onFailure(res.writeError, 'storing polled results');
  };

  /** A lane runs its step until stop(); a step that throws never ends the lane (nor, unhandled, the process). */
  const lane = async (name: string, step: () => Promise<void>) => {
    while (running) {
      try {
        await step();
      } catch (e) {
        onFailure(e, name);
        await nap(idleRecheckMs);
      }
    }
  };

  const isIdle = (): boolean => {
    if (inFlight.size > 0) return false;
    const r = stmt(
      db,
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
    for (const w of [...idleWaiters]) {
      idleWaiters.delete(w);
      w();
    }
  };

  return {
    start() {
      if (running) return;
      running = true;
      stopping = null;
      pause = readSetting<RunnerState['pause']>(db, PAUSE_KEY(profileId));
      recovered = false;
      try {
        recover();
      } catch (e) {
        // Interrupted uploads stay `uploading` (never sent again); the upload lane recovers them before it sends anything.
        onFailure(e, 'recovering interrupted uploads');
      }
      lanes = [lane('the upload lane', uploadStep), lane('the polling lane', pollStep)];
    },
    stop() {
      // A second stop() waits for the first (and never touches a database the caller closed since).
      stopping ??= (async () => {
        running = false;
        wake();
        await Promise.all(lanes);
        await Promise.all(inFlight.values());
        if (unrecorded.size > 0 && !(await writeUnrecorded().catch(() => false))) {
          for (const { row, out } of unrecorded.values()) {
            console.error(
              `queue runner: stopping with recording ${row.id} ${out.answer} but not saved; it will be held as uncertain at the next start`,
            );
          }
        }
        hub.close();
        for (const w of idleWaiters) w();
        idleWaiters.clear();
      })();
      return stopping;
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
    state: () => ({ running, pause, inFlight: inFlight.size, unrecorded: unrecorded.size }),
    whenIdle: () =>
      new Promise<void>((resolve) => {
        if (isIdle()) return resolve();
        idleWaiters.add(resolve);
      }),
  };
};
