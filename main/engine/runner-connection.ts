/**
 * The queue runner on a study database whose connection is lost (main/db/store/connection-watch.ts):
 * its lanes wait for the store to reconnect instead of failing step after step, and once it is back
 * the upload lane recovers before it sends anything. An upload whose claim was committed just as the
 * connection broke (the claim's answer lost with it) was not sent by this process, but nothing in the
 * database tells it apart from one sent under the same workstation name: it becomes uncertain, for the
 * researcher, never sent by itself. Uploads in flight or answered meanwhile keep their claim and answer.
 */
import type { RunnerCore } from './runner-core';

/** Waits until the store's connection is back, or stop() (a nap at a time, so stop() ends it). */
export const untilConnected = async (r: RunnerCore): Promise<void> => {
  const connection = r.store.connection;
  if (!connection?.lost) return;
  await Promise.race([connection.whenConnected(), r.nap(r.idleRecheckMs)]);
};

/** Once the connection is back: recover before the next upload, and look at the queue now. */
export const afterReconnecting = (r: RunnerCore): (() => void) =>
  r.store.connection?.onChange((c) => {
    if (c.state !== 'restored') return;
    r.recovered = false;
    r.reconnected = true;
    r.wake();
  }) ?? (() => undefined);
