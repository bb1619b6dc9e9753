/** Events the main process pushes to the renderer. */
import { z } from 'zod';
import { eventDef } from '../rpc';
import { EngineEventSchema } from './views';

export const eventsContract = {
  /** Engine progress: batch counts, changed recordings, queue pauses, usage reads (coalesced, a few a second at most). */
  engine: eventDef(EngineEventSchema),
  /** The import preview reading files. */
  'imports.progress': eventDef(z.object({ done: z.number(), total: z.number() })),
} as const;
