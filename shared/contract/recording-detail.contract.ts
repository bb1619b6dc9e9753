/** Everything about one recording: its file, the local verdict, what the service said, each analysis type's state and every value. */
import { z } from 'zod';
import { ApiError } from '../api/api-error';
import { DATA_QUALITY_CODES, type DataQualityCode } from '../api/data-quality';
import { AnalysisType } from '../api/vocabulary';
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
  /** What the service sent that departs from the specification; each value is kept as received (shared/api/data-quality.ts). */
  flags: z.array(
    z.object({
      origin: z.enum(['poll', 'receipt', 'receipt_check']),
      analysisType: z.string().nullable(),
      code: z.enum(DATA_QUALITY_CODES as [DataQualityCode, ...DataQualityCode[]]),
      path: z.string(),
      measures: z.array(z.string()),
      received: z.string().nullable(),
      expected: z.string(),
    }),
  ),
  /** Each analysis object as last received (JSON); `listed: false`: reported by the service, not described by the specification. */
  answers: z.array(
    z.object({
      name: z.string(),
      listed: z.boolean(),
      receivedStatus: z.string().nullable(),
      raw: z.string(),
    }),
  ),
  events: z.array(z.object({ at: z.string(), kind: z.string(), detail: z.string() })),
});
export type RecordingFlag = RecordingDetail['flags'][number];
export type RecordingDetail = z.infer<typeof RecordingDetailSchema>;

export const recordingDetailContract = {
  'recordings.detail': procedure(z.object({ recordingId: Id }), RecordingDetailSchema),
} as const;
