/**
 * Import: browse for files (the built-in browser works in every mode; native dialogs only in
 * Electron), preview what a set of files, folders and a manifest would become (held in the main
 * process and paged, so a folder of thousands of files never crosses IPC whole), then commit it as a batch.
 */
import { z } from 'zod';
import { action, NoInput, procedure } from '../rpc';
import { PageWindow } from './participants.contract';
import {
  CreditCheckSchema,
  Id,
  ImportRequestSchema,
  PlannedActionSchema,
  PlannedFileSchema,
  UploadStateSchema,
} from './views';

export const DirEntrySchema = z.object({
  name: z.string(),
  path: z.string(),
  kind: z.enum(['dir', 'file']),
  sizeBytes: z.number().nullable(),
  /** By extension: audio the importer reads, or a CSV that may be a manifest. */
  audio: z.boolean(),
  csv: z.boolean(),
});

export const PlanSummarySchema = z.object({
  planId: z.string(),
  counts: z.record(PlannedActionSchema, z.number()),
  totalFiles: z.number(),
  totalBytes: z.number(),
  manifestErrors: z.array(z.object({ line: z.number(), message: z.string() })),
  notices: z.array(z.string()),
  newParticipants: z.array(z.string()),
  participantsWithoutAccount: z.array(z.string()),
});
export type PlanSummary = z.infer<typeof PlanSummarySchema>;

export const filesContract = {
  /** A folder's entries for the built-in file browser (the home folder when no path is given). */
  'files.list': procedure(
    z.object({ path: z.string().optional() }),
    z.object({
      path: z.string(),
      parent: z.string().nullable(),
      home: z.string(),
      entries: z.array(DirEntrySchema),
      truncated: z.boolean(),
    }),
  ),
  /** The operating system's dialog (Electron only; browser mode answers UNSUPPORTED). Empty when cancelled. */
  'files.pick': action(
    z.object({ purpose: z.enum(['audio', 'folder', 'manifest', 'export-folder']) }),
    z.object({ paths: z.array(z.string()) }),
    [],
  ),
  'files.manifestTemplate': procedure(NoInput, z.object({ csv: z.string() })),
} as const;

export const importsContract = {
  'imports.preview': action(ImportRequestSchema, PlanSummarySchema, []),
  'imports.planFiles': procedure(
    z.object({ planId: z.string(), action: PlannedActionSchema.optional(), ...PageWindow }),
    z.object({ rows: z.array(PlannedFileSchema), total: z.number() }),
  ),
  /** What the plan would cost against the service's usage (reads usage; sends nothing else). */
  'imports.creditEstimate': procedure(z.object({ planId: z.string() }), CreditCheckSchema),
  'imports.commit': action(
    z.object({
      planId: z.string(),
      insistOnDuplicates: z.array(z.string()).max(10_000),
      /** Borderline files the researcher chose to send (paths, or true for all of them); omitted: none. */
      sendBorderline: z.union([z.array(z.string()).max(10_000), z.literal(true)]).optional(),
      label: z.string().max(200),
    }),
    z.object({
      batchId: Id,
      recordings: z.number(),
      byState: z.partialRecord(UploadStateSchema, z.number()),
      conversionFailures: z.array(z.object({ path: z.string(), reason: z.string() })),
    }),
    ['studies.get', 'studies.list', 'batches.list', 'recordings.page', 'participants.page', 'usage.overview'],
  ),
  'imports.discard': action(z.object({ planId: z.string() }), z.object({ done: z.boolean() }), []),
} as const;
