/**
 * zod forms of the engine's plain data (shared/study.ts, shared/api/domain.ts), so that what crosses
 * IPC is checked on both sides. The compile-time checks at the end keep each schema and its
 * TypeScript type identical: change one and `tsc` points at the other.
 */
import { z } from 'zod';
import { ApiError } from '../api/api-error';
import type { Same } from '../same-type';
import { labelText, LIMITS, listOf, pathText, plainText, strict } from './bounds';
import type { Usage } from '../api/domain';
import { AnalysisType, ApiVersion, AUDIO_FORMATS } from '../api/vocabulary';
import {
  ANALYSIS_STATES,
  BATCH_STATES,
  FINDING_SEVERITIES,
  PLANNED_ACTIONS,
  RECORDED_AT_SOURCES,
  UPLOAD_STATES,
  VERDICT_STATUSES,
} from '../states';
import type {
  BatchProgress,
  ConversionView,
  CreditCheckView,
  EngineEvent,
  ImportRequest,
  PlannedFile,
  ProfileSummary,
  UncertainUpload,
  VerdictView,
} from '../study';

export const Id = z.int().positive();
export const IsoDateTime = z.iso.datetime({ offset: true });

export const UploadStateSchema = z.enum(UPLOAD_STATES);
export const AnalysisStateSchema = z.enum(ANALYSIS_STATES);
export const BatchStateSchema = z.enum(BATCH_STATES);
export const RecordedAtSourceSchema = z.enum(RECORDED_AT_SOURCES);
export const PlannedActionSchema = z.enum(PLANNED_ACTIONS);
export const AudioFormatSchema = z.enum(AUDIO_FORMATS);

export const ProfileSummarySchema = z.object({
  id: Id,
  name: z.string(),
  baseUrl: z.string(),
  apiVersion: ApiVersion,
  isSandbox: z.boolean(),
  keyRef: z.string().nullable(),
});

export const UsageSchema = z.object({
  apiVersion: ApiVersion,
  uploadsRemaining: z.number(),
  detail: z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('credits'),
      trialRemaining: z.number(),
      trialGranted: z.number(),
      includedRemaining: z.number(),
      includedGranted: z.number(),
      purchasedRemaining: z.number(),
      tier: z.string().nullable(),
    }),
    z.object({ kind: z.literal('upload_count'), used: z.number(), limit: z.number() }),
  ]),
});

export const FindingSchema = z.object({
  code: z.string(),
  severity: z.enum(FINDING_SEVERITIES),
  message: z.string(),
  action: z.string(),
  fixedByConversion: z.boolean(),
});
export const ConversionSchema = z.object({
  sha256: z.string(),
  channel: z.union([z.number(), z.literal('mix')]),
  resampledFromHz: z.number().nullable(),
  decodedBy: z.object({ decoder: z.string(), container: z.string(), codec: z.string() }).optional(),
});
export const VerdictSchema = z.object({
  status: z.enum(VERDICT_STATUSES),
  findings: z.array(FindingSchema),
  speech: z
    .object({ seconds: z.number(), method: z.string(), channelSent: z.union([z.number(), z.literal('mix')]) })
    .optional(),
  conversion: ConversionSchema.optional(),
});

/** Which channel of a multichannel file is sent: the one with most speech, a 1-based number, or the mix. */
const ChannelChoiceSchema = z.union([z.literal('auto'), z.literal('mix'), z.number().int().min(1).max(64)]);

export const ImportRequestSchema = strict({
  studyId: Id,
  paths: listOf(pathText(), LIMITS.paths),
  manifestPath: pathText().optional(),
  filenamePattern: labelText().min(1).optional(),
  timeZone: plainText(LIMITS.timeZone).min(1),
  analyses: listOf(AnalysisType, 16),
  isolateOldestSpeaker: z.boolean(),
  convert: z.boolean(),
  channel: ChannelChoiceSchema.optional(),
  /** The researcher's channel for single files (the import wizard's file details), over `channel`. */
  channelByFile: listOf(strict({ path: pathText(), channel: ChannelChoiceSchema }), LIMITS.paths).optional(),
});

export const PlannedFileSchema = z.object({
  path: z.string(),
  fileName: z.string(),
  sizeBytes: z.number(),
  sha256: z.string().nullable(),
  participantCode: z.string().nullable(),
  session: z.string().nullable(),
  recordedAt: z.string().nullable(),
  recordedAtSource: RecordedAtSourceSchema.nullable(),
  format: AudioFormatSchema.nullable(),
  channels: z.number().nullable(),
  sampleRateHz: z.number().nullable(),
  durationSeconds: z.number().nullable(),
  speechSeconds: z.number().nullable(),
  verdict: VerdictSchema,
  duplicateOf: z.object({ recordingId: z.number().nullable(), path: z.string() }).nullable(),
  unstartedBatchId: z.number().optional(),
  alreadyRefused: z.object({ recordingId: z.number(), batchId: z.number().nullable() }).optional(),
  seenElsewhere: z
    .array(
      z.object({
        recordingId: z.number().nullable(),
        study: z.string(),
        sameStudy: z.boolean(),
        participantCode: z.string(),
        session: z.string().nullable(),
        path: z.string(),
      }),
    )
    .optional(),
  action: PlannedActionSchema,
  assignmentProblem: z.string().nullable(),
});

const countsBy = <T extends readonly [string, ...string[]]>(keys: T) =>
  z.partialRecord(z.enum(keys), z.number());

export const BatchProgressSchema = z.object({
  batchId: Id,
  studyId: Id,
  label: z.string(),
  state: BatchStateSchema,
  createdAt: z.string(),
  analyses: z.array(AnalysisType),
  uploads: countsBy(UPLOAD_STATES),
  heldBorderline: z.number(),
  analysesByState: countsBy(ANALYSIS_STATES),
  total: z.number(),
  pauseReason: z.string().nullable(),
  serviceClockOffsetSeconds: z.number().nullable(),
});

export const CreditCheckSchema = z.object({
  uploadsPlanned: z.number(),
  uploadsRemaining: z.number(),
  shortBy: z.number(),
  emptiedBuckets: z.array(z.string()),
  /** What each emptied bucket holds now, in the same order. */
  emptiedHold: z.array(z.number()),
  message: z.string(),
});

export const UncertainUploadSchema = z.object({
  recordingId: Id,
  path: z.string(),
  participantCode: z.string(),
  reason: z.string(),
  error: ApiError.nullable(),
  usageBefore: UsageSchema.nullable(),
  usageAfter: UsageSchema.nullable(),
});

export const EngineEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('batch-progress'), batches: z.array(BatchProgressSchema) }),
  z.object({
    type: z.literal('recordings-changed'),
    studyId: Id,
    recordingIds: z.array(Id),
    truncated: z.boolean(),
  }),
  z.object({
    type: z.literal('queue-paused'),
    profileId: Id,
    reason: z.string(),
    untilMs: z.number().nullable(),
  }),
  z.object({ type: z.literal('queue-resumed'), profileId: Id }),
  z.object({ type: z.literal('usage'), profileId: Id, usage: UsageSchema }),
  z.object({ type: z.literal('import-progress'), done: z.number(), total: z.number() }),
  z.object({
    type: z.literal('database-connection'),
    state: z.enum(['lost', 'restored']),
    at: z.string(),
    message: z.string(),
  }),
]);

export { ApiVersion };

// Compile-time: each schema describes exactly its type (both directions).
type Check<T extends true> = T;
type Deep<T> = T extends readonly (infer U)[]
  ? Deep<U>[]
  : T extends object
    ? { -readonly [K in keyof T]: Deep<T[K]> }
    : T;
export type ViewChecks = [
  Check<Same<Deep<z.infer<typeof ProfileSummarySchema>>, Deep<ProfileSummary>>>,
  Check<Same<Deep<z.infer<typeof UsageSchema>>, Deep<Usage>>>,
  Check<Same<Deep<z.infer<typeof VerdictSchema>>, Deep<VerdictView>>>,
  Check<Same<Deep<z.infer<typeof ConversionSchema>>, Deep<ConversionView>>>,
  Check<Same<Deep<z.infer<typeof PlannedFileSchema>>, Deep<PlannedFile>>>,
  Check<Same<Deep<z.infer<typeof BatchProgressSchema>>, Deep<BatchProgress>>>,
  Check<Same<Deep<z.infer<typeof CreditCheckSchema>>, Deep<CreditCheckView>>>,
  Check<Same<Deep<z.infer<typeof UncertainUploadSchema>>, Deep<UncertainUpload>>>,
  Check<Same<Deep<z.infer<typeof EngineEventSchema>>, Deep<EngineEvent>>>,
  Check<
    Same<
      Deep<Omit<z.infer<typeof ImportRequestSchema>, 'manifestPath' | 'filenamePattern'>>,
      Deep<Omit<ImportRequest, 'manifestPath' | 'filenamePattern'>>
    >
  >,
];
