/** Events the main process pushes to the renderer. */
import { z } from 'zod';
import { eventDef } from '../rpc';
import type { EngineEvent } from '../study';
import { EngineEventSchema } from './views';

export const eventsContract = {
  /** Engine progress: batch counts, changed recordings, queue pauses, usage reads (coalesced, a few a second at most). */
  engine: eventDef(EngineEventSchema),
  /** The import preview reading files. */
  'imports.progress': eventDef(z.object({ done: z.number(), total: z.number() })),
} as const;

/**
 * What each kind of engine event may change, as an action declares it (Procedure.affects): the
 * renderer refreshes these when one arrives. shared/contract/index.ts checks every name.
 */
export const ENGINE_EVENT_AFFECTS = {
  'batch-progress': ['batches.list', 'studies.list', 'studies.get'],
  'recordings-changed': [
    'recordings.page',
    'recordings.rows',
    'recordings.detail',
    'participants.page',
    'participants.get',
    'timeline.participant',
    'recordings.uncertain',
    'recordings.retryable',
    'batches.receiptDifferences',
  ],
  usage: ['usage.overview', 'profiles.list'],
  'queue-paused': ['queue.state'],
  'queue-resumed': ['queue.state'],
  'import-progress': [],
  'database-connection': [],
} as const satisfies Record<EngineEvent['type'], readonly string[]>;
