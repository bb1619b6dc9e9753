/**
 * The window's notice of a team study's lost database connection: shown, with the engine's words and
 * time, from the event that says it is lost; gone at the event that says it is restored; other engine
 * events leave it as it is.
 */
import { describe, expect, it } from 'vitest';
import { afterEngineEvent } from '../../../renderer/src/features/team/database-connection';

const lost = {
  type: 'database-connection',
  state: 'lost',
  at: '2026-03-02T10:00:00.000Z',
  message: 'The connection to the team study’s database was lost.',
} as const;

describe('the lost-connection notice', () => {
  it('appears when the connection is lost, with what the engine said', () => {
    expect(afterEngineEvent(null, lost)).toEqual({ at: lost.at, message: lost.message });
  });

  it('goes when the connection is restored', () => {
    const shown = afterEngineEvent(null, lost);
    expect(
      afterEngineEvent(shown, {
        ...lost,
        state: 'restored',
        at: '2026-03-02T10:00:30.000Z',
        message: 'Back.',
      }),
    ).toBeNull();
  });

  it('stays through other engine events', () => {
    const shown = afterEngineEvent(null, lost);
    expect(afterEngineEvent(shown, { type: 'queue-resumed', profileId: 1 })).toBe(shown);
    expect(afterEngineEvent(null, { type: 'queue-resumed', profileId: 1 })).toBeNull();
  });
});
