/**
 * A participant's indicators over time: every measure's values by session, split by API version
 * (v1.2 and v1.3 results are never mixed in one series), with a within-person baseline per series;
 * local acoustic measures (keys `lm_<key>`) in one series of their own ('local': computed
 * here from the audio, whatever the API version). Each session carries its visit in the study's
 * design and its days since the participant's baseline date; excluded recordings (curation)
 * are sent as such, their values apart from the series' own so that no baseline or change counts them.
 */
import { z } from 'zod';
import { DATA_QUALITY_CODES, type DataQualityCode } from '../api/data-quality';
import { BASELINE_RULE_SOURCES } from '../baseline';
import { CHANGE_VERDICTS, SD_SOURCES } from '../change';
import { RELIABILITY_SOURCES } from '../reliability';
import { AnalysisType, ApiVersion } from '../api/vocabulary';
import { VISIT_SOURCES } from '../states';
import { LOCAL_ANALYSIS } from '../timeline-measures';
import { listOf, plainText, strict } from './bounds';
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

/** An API version, or 'local': a local acoustic measure's one series over every version (the audio is the same). */
export const SeriesSource = z.union([ApiVersion, z.literal(LOCAL_ANALYSIS)]);
export type SeriesSource = z.infer<typeof SeriesSource>;

export const PointSchema = z.object({
  recordingId: Id,
  recordedAt: z.string(),
  value: z.union([z.number(), z.string()]),
  /** The data-quality flags naming this measure on this recording; empty for a value as specified. */
  flags: z.array(PointFlagSchema),
});

export const SeriesSchema = z.object({
  /** The API version of the service's values, or 'local' for a local acoustic measure. */
  apiVersion: SeriesSource,
  /** The values that count: baseline, change and trend are of these. */
  points: z.array(PointSchema),
  /** Values of recordings the researcher excluded from analysis: drawn and marked, counted nowhere. */
  excluded: z.array(PointSchema),
  /** The complete baseline (all k sessions present); null: no baseline yet. */
  baseline: BaselineSchema.nullable(),
  /** Sessions present toward the baseline: min(k, values in the series). */
  baselinePresent: z.number(),
  latest: z.object({ value: z.union([z.number(), z.string()]), recordedAt: z.string() }).nullable(),
  /** The latest session's change and whether it is reliable (shared/change.ts); null for categories. */
  change: ChangeSchema.nullable(),
});

/** The study's k and where it comes from (shared/baseline.ts): set for the study, the schedule's or the default. */
export const BaselineRuleSchema = z.object({
  sessions: z.int(),
  source: z.enum(BASELINE_RULE_SOURCES),
  /** The schedule's first follow-up visit, when the schedule gives k. */
  firstFollowUp: z.string().nullable(),
});

export const TimelineSchema = z.object({
  participantId: Id,
  code: z.string(),
  /** k of this view (the study's unless the call named another). */
  baselineSessions: z.number(),
  /** The study's k and where it comes from. */
  baselineRule: BaselineRuleSchema,
  versions: z.array(ApiVersion),
  sessions: z.array(
    z.object({
      recordingId: Id,
      recordedAt: z.string(),
      session: z.string().nullable(),
      apiVersion: ApiVersion,
      simulated: z.boolean(),
      flags: SessionFlagsSchema,
      /** The study design's visit this recording falls in (index from 1); null: outside every visit. */
      visit: z.object({ index: z.int(), name: z.string() }).nullable(),
      visitSource: z.enum(VISIT_SOURCES),
      /** Calendar days from the participant's baseline date; null without a baseline. */
      daysSinceBaseline: z.int().nullable(),
      /** The researcher's reason for excluding the recording from analysis; null when it counts. */
      excluded: z.string().nullable(),
      /** Dated after the participant's withdrawal (shared/withdrawal.ts), counted or not. */
      afterWithdrawal: z.boolean(),
    }),
  ),
  /** The study's visit schedule and the participant's baseline date (day 0) with where it comes from. */
  design: z.object({
    visits: z.array(z.object({ index: z.int(), name: z.string(), targetDay: z.int() })),
    baseline: z
      .object({ date: z.string(), source: z.enum(['researcher', 'first_usable', 'first_recording']) })
      .nullable(),
  }),
  /** Every measure with a value for this participant (service keys, then `lm_` keys), sent or not. */
  available: z.array(
    z.object({ key: z.string(), analysis: z.union([AnalysisType, z.literal(LOCAL_ANALYSIS)]) }),
  ),
  /** The measures asked for (all of them when none were named), in catalogue order. */
  measures: z.array(z.object({ key: z.string(), series: z.array(SeriesSchema) })),
});
export type Timeline = z.infer<typeof TimelineSchema>;
/**
 * Asked for as the measures: those of the study's stored chart choice, applied by the host, so that the
 * page asks for its timeline and the stored choice at once (not one after the other).
 */
export const STUDY_CHOICE = 'study-choice';
export type TimelineMeasures = readonly string[] | typeof STUDY_CHOICE;
export type PointFlag = z.infer<typeof PointFlagSchema>;
export type TimelinePoint = z.infer<typeof PointSchema>;

export const timelineContract = {
  'timeline.participant': procedure(
    /** baselineSessions: k for this view; absent, the study's setting. */
    /** measures: the keys to send values of (the charts shown); absent, every measure; 'study-choice': */
    /** the study's stored chart choice (cohort.chartChoice; none stored: the first two of each type). */
    strict({
      participantId: Id,
      baselineSessions: z.int().min(1).max(20).optional(),
      measures: z.union([listOf(plainText(100), 200), z.literal(STUDY_CHOICE)]).optional(),
      /** Count recordings dated after the participant's withdrawal (left out by default, shown marked). */
      includeAfterWithdrawal: z.boolean().optional(),
    }),
    TimelineSchema,
  ),
} as const;
