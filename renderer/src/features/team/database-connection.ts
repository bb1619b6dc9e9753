/** What the window says about a team study's database connection after each engine event. */
import type { EventPayload } from '../../../../shared/contract';

export interface LostConnection {
  readonly at: string;
  readonly message: string;
}

/** Lost: the notice to show; restored: none; any other event leaves the notice as it was. */
export const afterEngineEvent = (
  shown: LostConnection | null,
  e: EventPayload<'engine'>,
): LostConnection | null => {
  if (e.type !== 'database-connection') return shown;
  return e.state === 'lost' ? { at: e.at, message: e.message } : null;
};
