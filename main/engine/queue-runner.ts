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
 *
 * A study database on a server whose connection is lost (store.connection) neither crashes the engine
 * nor makes it spin: both lanes wait until the store has reconnected, then carry on; outcomes answered
 * meanwhile are written first, and an upload this workstation claimed but is no longer sending becomes
 * uncertain (runner-connection.ts).
 *
 * Several workstations may work one study's queue: each claims the uploads it sends, with a lease it
 * renews while they are in flight, and turns another's upload whose lease ran out into an uncertain one
 * (workstation-claims.ts).
 *
 * The parts: runner-core.ts (settings, waits, shared state), upload-lane.ts, poll-lane.ts, runner-pause.ts,
 * runner-idle.ts and workstation-claims.ts.
 */
import { createRunnerCore, type RunnerCore, type RunnerOptions, type RunnerState } from './runner-core';
import { whenIdle } from './runner-idle';
import { loadPause, onFailure, setPause } from './runner-pause';
import { pollStep } from './poll-lane';
import { recover, uploadStep, writeUnrecorded } from './upload-lane';
import { afterReconnecting, untilConnected } from './runner-connection';
import { startHeartbeat } from './workstation-claims';

export type { RunnerOptions, RunnerState } from './runner-core';

export interface QueueRunner {
  /**
   * Loads the pause an earlier process left and recovers interrupted uploads, then runs both lanes
   * until stop(); resolves once the lanes run.
   */
  start(): Promise<void>;
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

/** A lane runs its step until stop(); a step that throws never ends the lane (nor, unhandled, the process). */
const lane = async (r: RunnerCore, name: string, step: (r: RunnerCore) => Promise<void>) => {
  while (r.running) {
    if (r.store.connection?.lost) {
      await untilConnected(r);
      continue;
    }
    try {
      await step(r);
    } catch (e) {
      onFailure(r, e, name);
      await r.nap(r.idleRecheckMs);
    }
  }
};

export const createQueueRunner = (o: RunnerOptions): QueueRunner => {
  const r = createRunnerCore(o);
  let stopping: Promise<void> | null = null;
  let lanes: Promise<void>[] = [];
  let starting: Promise<void> = Promise.resolve();
  let stopHeartbeat: () => Promise<void> = () => Promise.resolve();
  let stopWatching: () => void = () => undefined;

  const begin = async () => {
    const before = r.pause;
    const stored = await loadPause(r);
    // A pause set or lifted while the stored one was read (pause() just after start()) rules.
    if (r.pause === before) r.pause = stored;
    r.recovered = false;
    try {
      await recover(r);
    } catch (e) {
      // Interrupted uploads stay `uploading` (never sent again); the upload lane recovers them before it sends anything.
      onFailure(r, e, 'recovering interrupted uploads');
    }
    // stop() may have been asked while recovering: no lane starts then.
    if (!r.running) return;
    stopHeartbeat = startHeartbeat(r, (e) => onFailure(r, e, 'the workstation heartbeat'));
    stopWatching = afterReconnecting(r);
    lanes = [lane(r, 'the upload lane', uploadStep), lane(r, 'the polling lane', pollStep)];
  };

  return {
    start() {
      if (r.running) return starting;
      r.running = true;
      stopping = null;
      starting = begin();
      return starting;
    },
    stop() {
      // A second stop() waits for the first (and never touches a database the caller closed since).
      stopping ??= (async () => {
        r.running = false;
        r.wake();
        await starting.catch(() => {});
        stopWatching();
        await Promise.all(lanes);
        await Promise.all(r.inFlight.values());
        await stopHeartbeat();
        if (r.unrecorded.size > 0 && !(await writeUnrecorded(r).catch(() => false))) {
          for (const { row, out } of r.unrecorded.values()) {
            console.error(
              `queue runner: stopping with recording ${row.id} ${out.answer} but not saved; it will be held as uncertain at the next start`,
            );
          }
        }
        await r.pauseWrite;
        await r.hub.close();
        for (const w of r.idleWaiters) w();
        r.idleWaiters.clear();
      })();
      return stopping;
    },
    wake: r.wake,
    pause(reason) {
      setPause(r, { reason: reason ?? 'Sending paused by the researcher.', error: null, untilMs: null });
    },
    resume() {
      if (r.pause === null) return;
      setPause(r, null);
      r.wake();
    },
    state: () => ({
      running: r.running,
      pause: r.pause,
      inFlight: r.inFlight.size,
      unrecorded: r.unrecorded.size,
    }),
    whenIdle: () => whenIdle(r),
  };
};
