/**
 * A team study's database connection, said plainly: while it is lost, what happened and that the
 * workstation reconnects by itself; gone once it is restored.
 */
import { useCallback, useState } from 'react';
import type { EventPayload } from '../../../../shared/contract';
import { useEvent } from '../../lib/api';
import { fmtDateTime } from '../../lib/format';
import { afterEngineEvent, type LostConnection } from './database-connection';

export const DatabaseConnectionBanner = () => {
  const [lost, setLost] = useState<LostConnection | null>(null);
  const onEvent = useCallback(
    (e: EventPayload<'engine'>) => setLost((shown) => afterEngineEvent(shown, e)),
    [],
  );
  useEvent('engine', onEvent);
  if (lost === null) return null;
  return (
    <div className="notice notice-bad connection" role="alert">
      <p className="notice-title">
        The team study's database cannot be reached (since {fmtDateTime(lost.at)})
      </p>
      <p>{lost.message}</p>
      <p className="notice-action">
        This workstation reconnects by itself and carries on where it stopped; nothing half-written is kept.
        Work you start meanwhile is refused until the connection is back.
      </p>
    </div>
  );
};
