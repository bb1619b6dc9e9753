/**
 * Studies: a name, the service profile its recordings go to, and how often participants are expected
 * to record; and a study's local data (what it holds, archive a consistent copy, delete it for good).
 */
import { z } from 'zod';
import { ApiVersion } from '../api/vocabulary';
import { labelText, nameText, pathText, strict } from './bounds';
import { action, NoInput, procedure } from '../rpc';
import { Id } from './views';

export const StudyViewSchema = z.object({
  id: Id,
  name: z.string(),
  profileId: Id.nullable(),
  profileName: z.string().nullable(),
  apiVersion: ApiVersion.nullable(),
  /** Results of this study's profile are simulated (built-in sandbox). */
  simulated: z.boolean(),
  /** Expected days between a participant's sessions (overdue comes from the visit schedule, not from this). */
  sessionIntervalDays: z.int().min(1).max(365),
  participants: z.number(),
  recordings: z.number(),
  completedRecordings: z.number(),
  /** Recordings needing the researcher: refused, rejected, uncertain, duplicates held. */
  needsAttention: z.number(),
  overdueParticipants: z.number(),
  lastRecordingAt: z.string().nullable(),
  createdAt: z.string(),
});
export type StudyView = z.infer<typeof StudyViewSchema>;

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

const StudyName = nameText();
const Interval = z.int().min(1).max(365);

export const studiesContract = {
  'studies.list': procedure(NoInput, z.array(StudyViewSchema)),
  'studies.get': procedure(strict({ studyId: Id }), StudyViewSchema),
  'studies.create': action(
    strict({ name: StudyName, profileId: Id, sessionIntervalDays: Interval.optional() }),
    StudyViewSchema,
    ['studies.list'],
  ),
  'studies.update': action(
    strict({ studyId: Id, name: StudyName.optional(), sessionIntervalDays: Interval.optional() }),
    StudyViewSchema,
    ['studies.get', 'studies.list', 'participants.page'],
  ),
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
