/**
 * Recordings: one row per imported file, its upload state and each analysis type's state; the detail
 * of one recording with every value; and the researcher's decisions (retry what is safe, resolve an
 * uncertain upload, insist on a duplicate).
 */
import { z } from 'zod';
import { ApiError } from '../api/api-error';
import { AnalysisType, ApiVersion } from '../api/vocabulary';
import { procedure } from '../rpc';
import { PageWindow, SortDir } from './participants.contract';
import {
  AnalysisStateSchema, Id, RecordedAtSourceSchema, UncertainUploadSchema, UploadStateSchema, VerdictSchema,
} from './views';

/** What a researcher reads about a file that needs them: what happened and what to do. */
export const ProblemSchema = z.object({ summary: z.string(), action: z.string() });

export const RecordingRowSchema = z.object({
  id: Id,
  participantId: Id,
  participantCode: z.string(),
  batchId: Id.nullable(),
  fileName: z.string(),
  session: z.string().nullable(),
  recordedAt: z.string(),
  recordedAtSource: RecordedAtSourceSchema,
  uploadState: UploadStateSchema,
  analyses: z.array(z.object({ type: AnalysisType, state: AnalysisStateSchema })),
  converted: z.boolean(),
  verdictStatus: VerdictSchema.shape.status.nullable(),
  apiVersion: ApiVersion.nullable(),
  simulated: z.boolean(),
  problem: ProblemSchema.nullable(),
  /** What the researcher can safely do now. */
  canRetry: z.boolean(),
});
export type RecordingRow = z.infer<typeof RecordingRowSchema>;

export const RECORDING_SORTS = ['recorded_at', 'participant', 'file', 'state', 'id'] as const;
export const RECORDING_FILTERS = ['all', 'needs_attention', 'in_progress', 'completed', 'uncertain', 'refused', 'duplicates'] as const;

export const RecordingDetailSchema = z.object({
  row: RecordingRowSchema,
  studyId: Id,
  sourcePath: z.string(),
  /** The converted copy that was sent instead of the original, when there is one. */
  uploadPath: z.string().nullable(),
  contentSha256: z.string(),
  local: z.object({
    format: z.string().nullable(), channels: z.number().nullable(), sampleRateHz: z.number().nullable(), bitRateBps: z.number().nullable(),
    sizeBytes: z.number(), durationSeconds: z.number().nullable(), speechEstimateSeconds: z.number().nullable(),
  }),
  verdict: VerdictSchema.nullable(),
  service: z.object({
    recordingId: z.string(), uploadedAt: z.string().nullable(), format: z.string().nullable(), sizeBytes: z.number().nullable(),
    sampleRateHz: z.number().nullable(), bitRateBps: z.number().nullable(), durationSeconds: z.number().nullable(), speechSeconds: z.number().nullable(),
  }).nullable(),
  isolateOldestSpeaker: z.boolean(),
  uploadAttempts: z.number(),
  uploadError: ApiError.nullable(),
  duplicateOf: z.object({ recordingId: Id, fileName: z.string() }).nullable(),
  analyses: z.array(z.object({
    type: AnalysisType, state: AnalysisStateSchema, requestedAt: z.string(), finishedAt: z.string().nullable(),
    polls: z.number(), lastPolledAt: z.string().nullable(), nextPollAt: z.string().nullable(),
  })),
  /** Every stored value by measure key (see shared/api/measures.ts for label, unit and meaning). */
  values: z.record(z.string(), z.union([z.number(), z.string()])),
  events: z.array(z.object({ at: z.string(), kind: z.string(), detail: z.string() })),
});
export type RecordingDetail = z.infer<typeof RecordingDetailSchema>;

export const recordingsContract = {
  'recordings.page': procedure(
    z.object({
      studyId: Id, participantId: Id.optional(), batchId: Id.optional(), filter: z.enum(RECORDING_FILTERS).optional(),
      search: z.string().max(200).optional(), sort: z.enum(RECORDING_SORTS), dir: SortDir, ...PageWindow,
    }),
    z.object({ rows: z.array(RecordingRowSchema), total: z.number() }),
  ),
  'recordings.rows': procedure(z.object({ ids: z.array(Id).max(500) }), z.array(RecordingRowSchema)),
  'recordings.detail': procedure(z.object({ recordingId: Id }), RecordingDetailSchema),
  /**
   * Does again what is safe: a rejected upload (nothing was charged) is queued again; timed-out
   * analyses are asked for again now. Never an uncertain upload: that is `resolveUncertain`.
   */
  'recordings.retry': procedure(z.object({ recordingIds: z.array(Id).min(1).max(10_000) }), z.object({ retried: z.number(), skipped: z.number() })),
  'recordings.uncertain': procedure(z.object({ studyId: Id }), z.array(UncertainUploadSchema)),
  'recordings.resolveUncertain': procedure(
    z.object({ recordingId: Id, decision: z.enum(['queue_again', 'cancel', 'mark_uploaded_elsewhere']) }), z.object({ done: z.boolean() }),
  ),
  'recordings.insistDuplicate': procedure(z.object({ recordingId: Id }), z.object({ done: z.boolean() })),
} as const;
