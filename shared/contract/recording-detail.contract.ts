/** Everything about one recording: its file, the local verdict, what the service said, each analysis type's state and every value. */
import { z } from 'zod';
import { ApiError } from '../api/api-error';
import { AnalysisType } from '../api/vocabulary';
import { strict } from './bounds';
import { procedure } from '../rpc';
import { RecordingRowSchema } from './recordings.contract';
import { AnalysisStateSchema, Id, VerdictSchema } from './views';

export const RecordingDetailSchema = z.object({
  row: RecordingRowSchema,
  studyId: Id,
  sourcePath: z.string(),
  /** The converted copy that was sent instead of the original, when there is one. */
  uploadPath: z.string().nullable(),
  contentSha256: z.string(),
  local: z.object({
    format: z.string().nullable(),
    channels: z.number().nullable(),
    sampleRateHz: z.number().nullable(),
    bitRateBps: z.number().nullable(),
    sizeBytes: z.number(),
    durationSeconds: z.number().nullable(),
    speechEstimateSeconds: z.number().nullable(),
  }),
  verdict: VerdictSchema.nullable(),
  service: z
    .object({
      recordingId: z.string(),
      uploadedAt: z.string().nullable(),
      format: z.string().nullable(),
      sizeBytes: z.number().nullable(),
      sampleRateHz: z.number().nullable(),
      bitRateBps: z.number().nullable(),
      durationSeconds: z.number().nullable(),
      speechSeconds: z.number().nullable(),
    })
    .nullable(),
  isolateOldestSpeaker: z.boolean(),
  uploadAttempts: z.number(),
  uploadError: ApiError.nullable(),
  duplicateOf: z.object({ recordingId: Id, fileName: z.string() }).nullable(),
  analyses: z.array(
    z.object({
      type: AnalysisType,
      state: AnalysisStateSchema,
      requestedAt: z.string(),
      finishedAt: z.string().nullable(),
      polls: z.number(),
      lastPolledAt: z.string().nullable(),
      nextPollAt: z.string().nullable(),
    }),
  ),
  /** Every stored value by measure key (see shared/api/measures.ts for label, unit and meaning). */
  values: z.record(z.string(), z.union([z.number(), z.string()])),
  events: z.array(z.object({ at: z.string(), kind: z.string(), detail: z.string() })),
});
export type RecordingDetail = z.infer<typeof RecordingDetailSchema>;

export const recordingDetailContract = {
  'recordings.detail': procedure(strict({ recordingId: Id }), RecordingDetailSchema),
} as const;
