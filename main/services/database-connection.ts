/**
 * A team study's database connection told to the researcher: once when it is lost, once when the
 * workstation has reconnected by itself, as the engine event `database-connection` (the window and the
 * command line say the same words). A study kept in the workspace's own file has no connection to lose.
 */
import type { DatabaseConnectionEvent } from '../../shared/study';
import { iso } from '../../shared/iso';
import type { Store } from '../db/store/types';

/** What the researcher is told, in each state (no address, no password). */
export const DATABASE_CONNECTION_WORDS: Readonly<Record<DatabaseConnectionEvent['state'], string>> = {
  lost: 'The connection to the study database was lost (the server restarted, the network dropped, or the server ended the session). Voicescope is reconnecting by itself; until then nothing new is sent or saved, nothing saved before is lost, and answers the service gives meanwhile are saved when the connection is back.',
  restored: 'The connection to the study database is back; Voicescope carries on where it stopped.',
};

/** Tells `emit` each change of the store's connection; returns the way to stop. */
export const reportDatabaseConnection = (
  store: Store,
  emit: (e: DatabaseConnectionEvent) => void,
): (() => void) =>
  store.connection?.onChange((c) =>
    emit({
      type: 'database-connection',
      state: c.state,
      at: iso(c.at),
      message: DATABASE_CONNECTION_WORDS[c.state],
    }),
  ) ?? (() => undefined);
