/**
 * A participant's indicators over time: every measure's values by session, split by API version
 * (v1.2 and v1.3 results are never mixed in one series), with a within-person baseline per series.
 */
import { z } from 'zod';
import { DATA_QUALITY_CODES, type DataQualityCode } from '../api/data-quality';
import { ApiVersion } from '../api/vocabulary';
import { strict } from './bounds';
import { procedure } from '../rpc';
import { Id } from './views';

export const SessionFlagsSchema = z.object({
  converted: z.boolean(),
  /** Detected speech close to the 30-second minimum (under 36 s). */
  marginalSpeech: z.boolean(),
  isolated: z.boolean(),
  /** Local-check warnings (e.g. a sample rate under 16 kHz). */
  warnings: z.array(z.string()),
});

export const BaselineSchema = z.object({
  n: z.number(),
  mean: z.number(),
  sd: z.number().nullable(),
  from: z.string(),
  to: z.string(),
});

/** Why a value departs from the specification (shared/api/data-quality.ts); the value is kept as received. */
export const PointFlagSchema = z.object({
  code: z.enum(DATA_QUALITY_CODES as [DataQualityCode, ...DataQualityCode[]]),
  received: z.string().nullable(),
  expected: z.string(),
});

export const SeriesSchema = z.object({
  apiVersion: ApiVersion,
  points: z.array(
    z.object({
      recordingId: Id,
      recordedAt: z.string(),
      value: z.union([z.number(), z.string()]),
      /** The data-quality flags naming this measure on this recording; empty for a value as specified. */
      flags: z.array(PointFlagSchema),
    }),
  ),
  baseline: BaselineSchema.nullable(),
  latest: z.object({ value: z.union([z.number(), z.string()]), recordedAt: z.string() }).nullable(),
  /** Latest minus the baseline mean (numeric measures). */
  change: z.number().nullable(),
  /** The change in baseline standard deviations, when the baseline has one. */
  changeInSd: z.number().nullable(),
});

export const TimelineSchema = z.object({
  participantId: Id,
  code: z.string(),
  baselineSessions: z.number(),
  versions: z.array(ApiVersion),
  sessions: z.array(
    z.object({
      recordingId: Id,
      recordedAt: z.string(),
      session: z.string().nullable(),
      apiVersion: ApiVersion,
      simulated: z.boolean(),
      flags: SessionFlagsSchema,
    }),
  ),
  measures: z.array(z.object({ key: z.string(), series: z.array(SeriesSchema) })),
});
export type Timeline = z.infer<typeof TimelineSchema>;
export type PointFlag = z.infer<typeof PointFlagSchema>;

export const timelineContract = {
  'timeline.participant': procedure(
    strict({ participantId: Id, baselineSessions: z.int().min(1).max(20).default(3) }),
    TimelineSchema,
  ),
} as const;
