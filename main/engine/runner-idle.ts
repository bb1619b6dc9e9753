/**
 * When the queue runner is idle: nothing in flight, nothing queued on running batches (or sending is
 * paused), and no analysis still `processing`. Timed-out analyses do not count: their slow re-checks go
 * on (under `voicescope run` and in the app) but nobody waits for them, so `voicescope wait` returns
 * within the timeout of the last upload. Whoever waits hears it after the last progress went out.
 */
import { pendingWork } from '../db/repos/queue.repo';
import type { RunnerCore } from './runner-core';

export const isIdle = async (r: RunnerCore): Promise<boolean> => {
  if (r.inFlight.size > 0) return false;
  const work = await pendingWork(r.store, r.profileId);
  // In flight again while the database was read: not idle.
  return r.inFlight.size === 0 && (!work.uploads || r.pause !== null) && !work.polls;
};

/** Tells the waiters, if any, that the runner is idle now. */
export const checkIdle = async (r: RunnerCore): Promise<void> => {
  if (r.idleWaiters.size === 0 || !(await isIdle(r))) return;
  await r.hub.flush(); // the last progress goes out before anybody hears "idle"
  for (const w of [...r.idleWaiters]) {
    r.idleWaiters.delete(w);
    w();
  }
};

/** The waiter is registered before the database is read, so a lane's check during that read hears it too. */
export const whenIdle = (r: RunnerCore): Promise<void> => {
  const idle = new Promise<void>((resolve) => r.idleWaiters.add(resolve));
  void checkIdle(r).catch(() => {}); // a failed read leaves the waiter to the lanes' next check
  return idle;
};
