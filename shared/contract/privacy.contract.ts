/**
 * Privacy: diagnostic logging and a study's local data (archive a consistent copy, delete it for good).
 * Nothing here carries an API key. The audit log is audit.contract.ts.
 */
import { z } from 'zod';
import { labelText, pathText, strict } from './bounds';
import { action, NoInput, procedure } from '../rpc';
import { Id } from './views';

/** Re-exported for main/db/repos/audit.repo.ts until it imports them from audit.contract.ts. */
export { AUDIT_KINDS, type AuditKind } from './audit.contract';

export const PrivacySettingsSchema = z.object({
  /** While on, the log keeps participant codes; API keys never. */
  diagnostic: z.object({ on: z.boolean(), since: z.string().nullable() }),
  logsDir: z.string(),
  archivesDir: z.string(),
});
export type PrivacySettings = z.infer<typeof PrivacySettingsSchema>;

export const StudyDataSchema = z.object({
  studyId: Id,
  name: z.string(),
  participants: z.int().nonnegative(),
  recordings: z.int().nonnegative(),
  measureValues: z.int().nonnegative(),
  convertedFiles: z.int().nonnegative(),
  exportFolders: z.int().nonnegative(),
  localBytes: z.number().nonnegative(),
  runningBatches: z.int().nonnegative(),
  uploadsInFlight: z.int().nonnegative(),
  lastArchivedAt: z.string().nullable(),
});
export type StudyData = z.infer<typeof StudyDataSchema>;

export const ArchiveReportSchema = z.object({
  folder: z.string(),
  files: z.array(z.object({ name: z.string(), bytes: z.number(), sha256: z.string() })),
  participants: z.int().nonnegative(),
  recordings: z.int().nonnegative(),
  archivedAt: z.string(),
});

export const DeleteReportSchema = z.object({
  studyId: Id,
  name: z.string(),
  participants: z.int().nonnegative(),
  recordings: z.int().nonnegative(),
  removedFiles: z.int().nonnegative(),
  removedExportFolders: z.int().nonnegative(),
  leftBehind: z.array(z.string()),
  databaseScrubbed: z.boolean(),
});

export const privacyContract = {
  'privacy.settings': procedure(NoInput, PrivacySettingsSchema),
  'privacy.setDiagnostic': action(strict({ on: z.boolean() }), PrivacySettingsSchema, [
    'privacy.settings',
    'audit.list',
  ]),
  'studies.dataSummary': procedure(strict({ studyId: Id }), StudyDataSchema),
  /** A consistent copy of the study (SQLite online backup) and its settings, into the workspace or a chosen folder. */
  'studies.archive': action(strict({ studyId: Id, outDir: pathText().optional() }), ArchiveReportSchema, [
    'studies.dataSummary',
    'audit.list',
  ]),
  /** Deletes the study and the files Voicescope made for it; the researcher types the study's name to confirm. */
  'studies.delete': action(strict({ studyId: Id, confirmName: labelText() }), DeleteReportSchema, [
    'studies.list',
    'studies.get',
    'audit.list',
  ]),
} as const;
