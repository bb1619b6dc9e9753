/**
 * A study's settings for change statistics: k, the sessions a baseline needs, and each measure's
 * test-retest reliability for the reliable change index (defaults and sources: shared/reliability.ts).
 */
import { z } from 'zod';
import { MEASURE_KINDS } from '../api/measures';
import { AnalysisType } from '../api/vocabulary';
import { MAX_RELIABILITY, MIN_RELIABILITY, RELIABILITY_SOURCES } from '../reliability';
import { plainText, strict } from './bounds';
import { action, procedure } from '../rpc';
import { Id } from './views';
import { BaselineRuleSchema } from './timeline.contract';

export const MeasureReliabilitySchema = z.object({
  key: z.string(),
  label: z.string(),
  analysis: AnalysisType,
  kind: z.enum(MEASURE_KINDS),
  /** The reliability in use; null: none (trend only, no reliable-change verdict). */
  r: z.number().nullable(),
  source: z.enum(RELIABILITY_SOURCES).nullable(),
  /** The documented default and where it comes from; null for measures without one. */
  defaultR: z.number().nullable(),
  group: z.string().nullable(),
  basis: z.string().nullable(),
  /** The study's note on its own value (e.g. where it was estimated). */
  note: z.string(),
});
export type MeasureReliability = z.infer<typeof MeasureReliabilitySchema>;

export const ChangeSettingsSchema = z.object({
  studyId: Id,
  baselineSessions: z.int(),
  /** True when the study has not set k (the schedule's or the default is used). */
  baselineSessionsIsDefault: z.boolean(),
  /** Where k comes from; without the study's own, what it would fall back to is `fallback`. */
  baselineRule: BaselineRuleSchema,
  /** The k the study goes back to when its own is removed (the schedule's, else the default). */
  fallback: BaselineRuleSchema,
  measures: z.array(MeasureReliabilitySchema),
});
export type ChangeSettingsView = z.infer<typeof ChangeSettingsSchema>;

const MeasureKey = z
  .string()
  .min(1)
  .max(32)
  .regex(/^[a-z0-9_]+$/);
export const ReliabilityValue = z.number().min(MIN_RELIABILITY).max(MAX_RELIABILITY);

export const reliabilityContract = {
  'reliability.get': procedure(strict({ studyId: Id }), ChangeSettingsSchema),
  /** Sets one measure's reliability for the study (0 to 0.99), with a note on where it comes from. */
  'reliability.set': action(
    strict({
      studyId: Id,
      measureKey: MeasureKey,
      r: ReliabilityValue,
      note: plainText(500).default(''),
    }),
    ChangeSettingsSchema,
    ['reliability', 'timeline'],
  ),
  /** Removes the study's own value: back to the documented default (or to none). */
  'reliability.remove': action(strict({ studyId: Id, measureKey: MeasureKey }), ChangeSettingsSchema, [
    'reliability',
    'timeline',
  ]),
  /** k for the study; null: the default. */
  'reliability.setBaselineSessions': action(
    strict({ studyId: Id, baselineSessions: z.int().min(1).max(20).nullable() }),
    ChangeSettingsSchema,
    ['reliability', 'timeline'],
  ),
} as const;
