/**
 * Import: preview what a set of files, folders and a manifest would become (held in the main process
 * and paged, so a folder of thousands of files never crosses IPC whole), then commit it as a batch.
 * Browsing for the files is files.contract.ts.
 */
import { z } from 'zod';
import { labelText, LIMITS, listOf, pathText, SiteCode, strict, tokenText } from './bounds';
import { action, procedure } from '../rpc';
import { PageWindow } from './participants.contract';
import {
  CreditCheckSchema,
  Id,
  ImportRequestSchema,
  PlannedActionSchema,
  PlannedFileSchema,
  UploadStateSchema,
} from './views';

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

export const importsContract = {
  'imports.preview': action(ImportRequestSchema, PlanSummarySchema, []),
  'imports.planFiles': procedure(
    strict({ planId: tokenText(), action: PlannedActionSchema.optional(), ...PageWindow }),
    z.object({ rows: z.array(PlannedFileSchema), total: z.number() }),
  ),
  /** What the plan would cost against the service's usage (reads usage; sends nothing else). */
  'imports.creditEstimate': procedure(strict({ planId: tokenText() }), CreditCheckSchema),
  'imports.commit': action(
    strict({
      planId: tokenText(),
      insistOnDuplicates: listOf(pathText(), LIMITS.paths),
      /** Borderline files the researcher chose to send (paths, or true for all of them); omitted: none. */
      sendBorderline: z.union([listOf(pathText(), LIMITS.paths), z.literal(true)]).optional(),
      label: labelText(),
      /** Import to start at once: the intent is written with the import, so a crash before the start is recovered. */
      start: z.boolean().optional(),
      /** A team study's site the new participants are put at (team.sites); omitted: the member's one site, or the study's default. */
      site: SiteCode.optional(),
    }),
    z.object({
      batchId: Id,
      recordings: z.number(),
      byState: z.partialRecord(UploadStateSchema, z.number()),
      conversionFailures: z.array(z.object({ path: z.string(), reason: z.string() })),
    }),
    ['studies.get', 'studies.list', 'batches.list', 'recordings.page', 'participants.page', 'usage.overview'],
  ),
  'imports.discard': action(strict({ planId: tokenText() }), z.object({ done: z.boolean() }), []),
} as const;
