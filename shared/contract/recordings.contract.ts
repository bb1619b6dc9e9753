/**
 * Recordings: one row per imported file, its upload state and each analysis type's state, paged; and
 * the researcher's decisions (retry what is safe, resolve an uncertain upload, insist on a duplicate);
 * and one recording's full detail: its file, the local verdict, what the service said, each analysis
 * type's state and every value.
 */
import { z } from 'zod';
import { ApiError } from '../api/api-error';
import { DATA_QUALITY_CODES, type DataQualityCode } from '../api/data-quality';
import { AnalysisType, ApiVersion } from '../api/vocabulary';
import { MEDIA_SOURCES } from '../media';
import { labelText, LIMITS, listOf, SiteCode, strict } from './bounds';
import { action, procedure } from '../rpc';
import { PageWindow, SortDir } from './participants.contract';
import {
  AnalysisStateSchema,
  Id,
  RecordedAtSourceSchema,
  UncertainUploadSchema,
  UploadStateSchema,
  VerdictSchema,
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
export type RecordingDetail = z.infer<typeof RecordingDetailSchema>;
export type RecordingFlag = RecordingDetail['flags'][number];

/** One playable source of a recording; `reason` says why it cannot be played when it cannot. */
export const RecordingAudioSchema = z.object({
  sources: z.array(
    z.object({
      which: z.enum(MEDIA_SOURCES),
      /** The address to play, without host (shared/media.ts); null when it cannot be played. */
      path: z.string().nullable(),
      contentType: z.string().nullable(),
      sizeBytes: z.number().nullable(),
      reason: z.string().nullable(),
    }),
  ),
});
export type RecordingAudio = z.infer<typeof RecordingAudioSchema>;

export const SpeechRegionsSchema = z.discriminatedUnion('available', [
  z.object({
    available: z.literal(true),
    segments: z.array(z.object({ start: z.number(), end: z.number() })).max(1_000_000),
    speechSeconds: z.number(),
    totalSeconds: z.number(),
    channel: z.union([z.number(), z.literal('mix')]),
    channels: z.number(),
    method: z.string(),
  }),
  z.object({ available: z.literal(false), reason: z.string() }),
]);
export type SpeechRegions = z.infer<typeof SpeechRegionsSchema>;

export const RECORDING_SORTS = ['recorded_at', 'participant', 'file', 'state', 'id'] as const;
export const RECORDING_FILTERS = [
  'all',
  'needs_attention',
  'in_progress',
  'completed',
  'uncertain',
  'refused',
  'duplicates',
] as const;
export type RecordingSort = (typeof RECORDING_SORTS)[number];
export type RecordingFilter = (typeof RECORDING_FILTERS)[number];

/** A decision on a file changes its row, its batch's counts and the study's figures. */
const AFTER_DECISION = [
  'recordings.uncertain',
  'recordings.page',
  'recordings.rows',
  'recordings.retryable',
  'batches.get',
  'batches.list',
  'studies.get',
] as const;

export const recordingsContract = {
  'recordings.page': procedure(
    strict({
      studyId: Id,
      participantId: Id.optional(),
      batchId: Id.optional(),
      filter: z.enum(RECORDING_FILTERS).optional(),
      search: labelText().optional(),
      /** A team study's site: only its participants' recordings. */
      site: SiteCode.optional(),
      sort: z.enum(RECORDING_SORTS),
      dir: SortDir,
      ...PageWindow,
    }),
    z.object({ rows: z.array(RecordingRowSchema), total: z.number() }),
  ),
  'recordings.rows': procedure(strict({ ids: listOf(Id, 500) }), z.array(RecordingRowSchema)),
  /**
   * Does again what is safe: a rejected upload (nothing was charged) is queued again; timed-out
   * analyses are asked for again now. Never an uncertain upload: that is `resolveUncertain`.
   */
  'recordings.retry': action(
    strict({ recordingIds: listOf(Id, LIMITS.ids).min(1) }),
    z.object({ retried: z.number(), skipped: z.number() }),
    AFTER_DECISION,
  ),
  /**
   * What "retry what is safe" would do in a study or one of its batches, before the researcher asks:
   * the recordings it would touch (rejected uploads that may now succeed; timed-out analyses to ask for
   * again). Never an uncertain upload.
   */
  'recordings.retryable': procedure(
    strict({ studyId: Id, batchId: Id.optional() }),
    z.object({ recordingIds: z.array(Id).max(10_000), rejected: z.number(), lateAnalyses: z.number() }),
  ),
  /** Uploads whose outcome is unknown, each with the usage read before and after it (a batch's only, when given). */
  'recordings.uncertain': procedure(
    strict({ studyId: Id, batchId: Id.optional() }),
    z.array(UncertainUploadSchema),
  ),
  'recordings.resolveUncertain': action(
    strict({ recordingId: Id, decision: z.enum(['queue_again', 'cancel', 'mark_uploaded_elsewhere']) }),
    z.object({ done: z.boolean() }),
    AFTER_DECISION,
  ),
  'recordings.insistDuplicate': action(
    strict({ recordingId: Id }),
    z.object({ done: z.boolean() }),
    AFTER_DECISION,
  ),
  'recordings.detail': procedure(strict({ recordingId: Id }), RecordingDetailSchema),
  /** The audio the window can play for a recording (shared/media.ts): the original, and the converted copy when one was sent. */
  'recordings.audio': procedure(strict({ recordingId: Id }), RecordingAudioSchema),
  /** Where the workstation's speech estimate (the import's 30-second check) finds speech in the original; computed when first asked. */
  'recordings.speech': procedure(strict({ recordingId: Id }), SpeechRegionsSchema),
} as const;
