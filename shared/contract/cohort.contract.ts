/**
 * The cohort view and what it groups by: one measure across a study's participants, the
 * participants' researcher-defined attributes (arm, site or any key), and the researcher's chart
 * choices per study (the participant page's measures and axis, remembered).
 */
import { z } from 'zod';
import { SeriesSource } from './timeline.contract';
import { CHART_AXES } from '../chart-axis';
import { listOf, multilineText, plainText, strict } from './bounds';
import { action, procedure } from '../rpc';
import { Id } from './views';

/** Attribute names: "arm", "site", "diagnosis"… at most 64 characters, no control characters. */
export const attributeKey = () =>
  plainText(64)
    .trim()
    .min(1, 'Name the attribute (for example arm or site).')
    .refine((k) => k.toLowerCase() !== 'participant_code', 'participant_code names the participant.');
/** Attribute values: at most 200 characters, no control characters. */
export const attributeValue = () => plainText(200).trim();

/** The largest attributes CSV the window sends (2 MB, some 20,000 participants with a few attributes). */
export const MAX_ATTRIBUTES_CSV = 2_000_000;
/** The most attributes one participant carries. */
export const MAX_ATTRIBUTES = 50;

const Attributes = z.record(z.string(), z.string());

export const AttributesOfStudySchema = z.object({
  /** Each key in use, with its values (sorted). */
  keys: z.array(z.object({ key: z.string(), values: z.array(z.string()) })),
  participants: z.array(z.object({ participantId: Id, code: z.string(), attributes: Attributes })),
});
export type AttributesOfStudy = z.infer<typeof AttributesOfStudySchema>;

export const AttributesImportSchema = z.object({
  /** Rows whose participant was found and whose attributes were set. */
  applied: z.number(),
  /** The attribute columns read (the header after participant_code). */
  keys: z.array(z.string()),
  /** Codes in the file that are not participants of the study (their rows are left out). */
  unknownCodes: z.array(z.string()),
  /** What could not be read, in the researcher's words (line numbers from 1, the header being line 1). */
  problems: z.array(z.string()),
});
export type AttributesImport = z.infer<typeof AttributesImportSchema>;

export const CohortPointSchema = z.object({
  recordingId: Id,
  recordedAt: z.string(),
  session: z.string().nullable(),
  /**
   * Days since the participant's baseline (the design's day 0) when the study has a visit schedule, else
   * since their first analysed session.
   */
  days: z.number(),
  /**
   * With a visit schedule: the place (from 1) of the visit the recording is assigned to, null when it is
   * outside every visit. Without one: the session's place in the participant's analysed sessions of this
   * measure and version, from 1.
   */
  visit: z.number().nullable(),
  value: z.union([z.number(), z.string()]),
  /** Dated after the participant's withdrawal (shared/withdrawal.ts): sent only when they are included. */
  afterWithdrawal: z.boolean(),
});

export const CohortSchema = z.object({
  studyId: Id,
  measureKey: z.string(),
  /** Values dated after their participant's withdrawal: left out unless included (then marked). */
  afterWithdrawal: z.object({ count: z.int(), included: z.boolean() }),
  /** The API versions with values, and 'local' for a local acoustic measure (`lm_` keys). */
  versions: z.array(SeriesSource),
  participants: z.array(
    z.object({
      participantId: Id,
      code: z.string(),
      attributes: Attributes,
      /** One series per API version: v1.2 and v1.3 values are never joined. */
      series: z.array(z.object({ apiVersion: SeriesSource, points: z.array(CohortPointSchema) })),
    }),
  ),
});
export type Cohort = z.infer<typeof CohortSchema>;

export const ChartChoiceSchema = strict({
  /** The measures shown on the participant page, in order; null: the default choice. */
  measures: listOf(plainText(100), 200).nullable(),
  axis: z.enum(CHART_AXES),
});
export type ChartChoice = z.infer<typeof ChartChoiceSchema>;

export const cohortContract = {
  'cohort.measure': procedure(
    strict({
      studyId: Id,
      measureKey: plainText(100),
      /** Count values dated after a participant's withdrawal (left out by default). */
      includeAfterWithdrawal: z.boolean().optional(),
    }),
    CohortSchema,
  ),
  'cohort.attributes': procedure(strict({ studyId: Id }), AttributesOfStudySchema),
  /** Sets (a value) or removes (null) attributes of one participant; keys not named stay as they are. */
  'cohort.setAttributes': action(
    strict({
      participantId: Id,
      changes: listOf(strict({ key: attributeKey(), value: attributeValue().nullable() }), MAX_ATTRIBUTES),
    }),
    z.object({ attributes: Attributes }),
    ['cohort.attributes', 'cohort.measure'],
  ),
  /** A CSV of participant_code and one column per attribute: empty cells leave an attribute as it is. */
  'cohort.setAttributesFromCsv': action(
    strict({ studyId: Id, csv: multilineText(MAX_ATTRIBUTES_CSV) }),
    AttributesImportSchema,
    ['cohort.attributes', 'cohort.measure'],
  ),
  'cohort.chartChoice': procedure(strict({ studyId: Id }), ChartChoiceSchema),
  'cohort.saveChartChoice': action(strict({ studyId: Id, choice: ChartChoiceSchema }), ChartChoiceSchema, [
    'cohort.chartChoice',
  ]),
} as const;
