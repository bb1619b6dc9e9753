/**
 * A participant's indicators over time: every measure's values by session, split by API version
 * (v1.2 and v1.3 results are never mixed in one series), with a within-person baseline per series.
 */
import { z } from 'zod';
import { DATA_QUALITY_CODES, type DataQualityCode } from '../api/data-quality';
import { CHANGE_VERDICTS, SD_SOURCES } from '../change';
import { RELIABILITY_SOURCES } from '../reliability';
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

/** shared/change.ts ChangeStats: every figure null where the rule gives none. */
export const ChangeSchema = z.object({
  verdict: z.enum(CHANGE_VERDICTS),
  change: z.number().nullable(),
  sdParticipant: z.number().nullable(),
  sdCohortWithin: z.number().nullable(),
  sdUsed: z.number().nullable(),
  sdSource: z.enum(SD_SOURCES).nullable(),
  changeInSd: z.number().nullable(),
  reliability: z.number().nullable(),
  reliabilitySource: z.enum(RELIABILITY_SOURCES).nullable(),
  rciSd: z.number().nullable(),
  sDiff: z.number().nullable(),
  rci: z.number().nullable(),
  trendPerWeek: z.number().nullable(),
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
  /** The complete baseline (all k sessions present); null: no baseline yet. */
  baseline: BaselineSchema.nullable(),
  /** Sessions present toward the baseline: min(k, values in the series). */
  baselinePresent: z.number(),
  latest: z.object({ value: z.union([z.number(), z.string()]), recordedAt: z.string() }).nullable(),
  /** The latest session's change and whether it is reliable (shared/change.ts); null for categories. */
  change: ChangeSchema.nullable(),
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
    /** baselineSessions: k for this view; absent, the study's setting. */
    strict({ participantId: Id, baselineSessions: z.int().min(1).max(20).optional() }),
    TimelineSchema,
  ),
} as const;
