/** The researcher's tuning of the poller and the queue (clamped to the specification). */
import { z } from 'zod';
import { strict } from './bounds';
import { action, NoInput, procedure } from '../rpc';

export const EngineSettingsSchema = z.object({
  firstPollSeconds: z.number().min(5).max(3600),
  pollIntervalSeconds: z.number().min(5).max(3600),
  pollJitterSeconds: z.number().min(0).max(1800),
  requestsPerSecond: z.number().min(0.05).max(50),
  uploadConcurrency: z.int().min(1).max(8),
  uploadsPerMinute: z.number().min(1).max(600),
});
export type EngineSettings = z.infer<typeof EngineSettingsSchema>;

export const settingsContract = {
  'settings.get': procedure(NoInput, EngineSettingsSchema),
  /** Saves what is given; values are clamped to the specification (never more often than every 5 s). */
  'settings.save': action(strict(EngineSettingsSchema.shape).partial(), EngineSettingsSchema, [
    'settings.get',
  ]),
} as const;
