/**
 * Privacy: diagnostic logging and where the logs and archives go. Nothing here carries an API key.
 * A study's local data (archive a consistent copy, delete it for good) is studies.contract.ts; the
 * audit log is audit.contract.ts.
 */
import { z } from 'zod';
import { strict } from './bounds';
import { action, NoInput, procedure } from '../rpc';

export const PrivacySettingsSchema = z.object({
  /** While on, the log keeps participant codes; API keys never. */
  diagnostic: z.object({ on: z.boolean(), since: z.string().nullable() }),
  logsDir: z.string(),
  archivesDir: z.string(),
});
export type PrivacySettings = z.infer<typeof PrivacySettingsSchema>;

export const privacyContract = {
  'privacy.settings': procedure(NoInput, PrivacySettingsSchema),
  'privacy.setDiagnostic': action(strict({ on: z.boolean() }), PrivacySettingsSchema, [
    'privacy.settings',
    'audit.list',
  ]),
} as const;
