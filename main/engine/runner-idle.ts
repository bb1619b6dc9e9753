/**
 * When the queue runner is idle: nothing in flight, nothing queued on running batches (or sending is
 * paused), and no analysis still `processing`. Timed-out analyses do not count: their slow re-checks go
 * on (under `voicescope run` and in the app) but nobody waits for them, so `voicescope wait` returns
 * within the timeout of the last upload. Whoever waits hears it after the last progress went out.
 */
import { pendingWork } from '../db/repos/queue.repo';
import type { RunnerCore } from './runner-core';

export const isIdle = (r: RunnerCore): boolean => {
  if (r.inFlight.size > 0) return false;
  const work = pendingWork(r.db, r.profileId);
  return (!work.uploads || r.pause !== null) && !work.polls;
};

/** Tells the waiters, if any, that the runner is idle now. */
export const checkIdle = (r: RunnerCore): void => {
  if (r.idleWaiters.size === 0 || !isIdle(r)) return;
  r.hub.flush(); // the last progress goes out before anybody hears "idle"
  for (const w of [...r.idleWaiters]) {
    r.idleWaiters.delete(w);
    w();
  }
};

export const whenIdle = (r: RunnerCore): Promise<void> =>
  new Promise<void>((resolve) => {
    if (isIdle(r)) return resolve();
    r.idleWaiters.add(resolve);
  });
