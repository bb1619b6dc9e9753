/**
 * Exports from the window: what the selection form needs to know about a study, running an export
 * (into a folder the researcher chose in the desktop app, or into the workspace's exports folder for a
 * browser download), its progress, and cancelling it. The request, report and refusal schemas are the
 * exporter's own (shared/export.ts), so the window, the command line and scripts share one definition.
 */
import { z } from 'zod';
import { AnalysisType, ApiVersion } from '../api/vocabulary';
import { ExportProgressSchema, ExportReportSchema, ExportRequestSchema } from '../export';
import { codeRef, LIMITS, listOf, pathText, strict, tokenText } from './bounds';
import { action, eventDef, procedure } from '../rpc';
import { Id } from './views';

export const ExportOptionsSchema = z.object({
  participants: z.number(),
  /** Distinct session labels (the first 500, in order). */
  sessions: z.array(z.string()),
  sessionsTruncated: z.boolean(),
  firstRecordedAt: z.string().nullable(),
  lastRecordedAt: z.string().nullable(),
  apiVersions: z.array(ApiVersion),
  analyses: z.array(AnalysisType),
  /** Recordings with at least one analysis (what an export can contain). */
  uploadedRecordings: z.number(),
  simulated: z.boolean(),
  /** Where a browser-mode export is written before it is downloaded. */
  workspaceExportsDir: z.string(),
});

export const exportsContract = {
  'exports.options': procedure(strict({ studyId: Id }), ExportOptionsSchema),
  /** Participant codes of the study that are not in the list given (typos in a pasted selection). */
  'exports.unknownCodes': procedure(
    strict({ studyId: Id, codes: listOf(codeRef(), LIMITS.codes) }),
    z.object({ unknown: z.array(z.string()) }),
  ),
  'exports.run': action(
    strict({
      /** Chosen by the window, so progress events and cancelling can name this run. */
      exportId: tokenText(8),
      request: ExportRequestSchema,
      /** A folder the researcher chose (desktop app); absent: the workspace's exports folder (browser mode downloads from there). */
      destination: pathText().optional(),
    }),
    ExportReportSchema,
    [],
  ),
  'exports.cancel': action(strict({ exportId: tokenText() }), z.object({ cancelled: z.boolean() }), []),
} as const;

export const exportEvents = {
  'exports.progress': eventDef(ExportProgressSchema.extend({ exportId: z.string() })),
} as const;
