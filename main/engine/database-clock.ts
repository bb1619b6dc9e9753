/**
 * The engine's clock on a study database several workstations share: the database's own. Workstation
 * clocks differ (by seconds, or minutes on a badly set machine), and the poll schedule and the request
 * budget kept in the database are deadlines every workstation reads; counted on each one's own clock, a
 * workstation running behind would find a poll due that another polled a moment ago. So the engine
 * reads the database's time once when its runner is made (every start and restart of the engine) and
 * keeps the offset: its clock is this computer's plus that offset, within half the round trip to the
 * server. Ages are still never counted on the service's clock. On SQLite (one workstation) the
 * engine's clock is the workstation's.
 */
import { databaseNow } from '../db/repos/clock.repo';
import type { Store } from '../db/store/types';

/** This computer's clock moved onto the database's (measured now), or `local` itself on SQLite. */
export const engineClock = async (store: Store, local: () => number = Date.now): Promise<() => number> => {
  if (!store.dialect.sharedByWorkstations) return local;
  const before = local();
  const db = Date.parse(await databaseNow(store));
  const offset = db - (before + local()) / 2;
  return () => local() + offset;
};
