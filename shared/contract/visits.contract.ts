/**
 * Study design: the study's period and time zone, its visit schedule, each participant's
 * status and baseline, each recording's visit (where it came from, and the researcher's override), and
 * the completeness table (visits x missing-data reasons).
 */
import { z } from 'zod';
import { MISSING_REASON_NAMES, MISSING_REASONS, type MissingCode, type MissingReason } from '../missing-data';
import { PARTICIPANT_STATUSES, VISIT_SOURCES } from '../states';
import { isTimeZone } from '../time-zone';
import { isDate } from '../visits';
import { action, procedure } from '../rpc';
import { boundedInt, LIMITS, listOf, plainText, strict } from './bounds';
import { Id } from './views';

/** A calendar date, YYYY-MM-DD. */
const DateText = z
  .string()
  .max(10)
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'A date is written YYYY-MM-DD.')
  .refine(isDate, 'That date does not exist.');
const TimeZoneText = plainText(LIMITS.timeZone)
  .min(1)
  .refine(isTimeZone, 'An IANA time zone, e.g. Europe/Berlin or UTC.');
/** Days: a schedule spans at most ten years. */
const MAX_DAY = 3660;
/** Visits in one schedule. */
const MAX_VISITS = 200;

export const VisitSchema = z.object({
  id: Id,
  position: z.int(),
  name: z.string(),
  targetDay: z.int(),
  windowBefore: z.int(),
  windowAfter: z.int(),
});

export const StudyDesignSchema = z.object({
  studyId: Id,
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  timeZone: z.string(),
  visits: z.array(VisitSchema),
});
export type StudyDesignView = z.infer<typeof StudyDesignSchema>;

const MissingReasonEnum = z.enum(MISSING_REASON_NAMES as unknown as [MissingReason, ...MissingReason[]]);
const MissingCodeEnum = z.enum(
  MISSING_REASONS.map((m) => m.code) as unknown as [MissingCode, ...MissingCode[]],
);

export const ParticipantStatusSchema = z.object({
  participantId: Id,
  code: z.string(),
  status: z.enum(PARTICIPANT_STATUSES),
  statusOn: z.string().nullable(),
  statusReason: z.string().nullable(),
  /** The baseline the researcher set (null: derived from the recordings). */
  baselineSet: z.string().nullable(),
  baseline: z
    .object({ date: z.string(), source: z.enum(['researcher', 'first_usable', 'first_recording']) })
    .nullable(),
});
export type ParticipantStatusView = z.infer<typeof ParticipantStatusSchema>;

export const RecordingVisitSchema = z.object({
  recordingId: Id,
  session: z.string().nullable(),
  recordedAt: z.string(),
  /** The recording's calendar date in the study's time zone. */
  date: z.string(),
  visitId: Id.nullable(),
  visit: z.string().nullable(),
  source: z.enum(VISIT_SOURCES),
  daysSinceBaseline: z.int().nullable(),
  usable: z.boolean(),
  /** Why the recording gives no values (null when usable or cancelled). */
  reason: MissingReasonEnum.nullable(),
  detail: z.string().nullable(),
  /** Dated after the participant's withdrawal (shared/withdrawal.ts): not an ordinary visit. */
  afterWithdrawal: z.boolean(),
});
export type RecordingVisitView = z.infer<typeof RecordingVisitSchema>;

export const VisitRowSchema = z.object({
  participantId: Id,
  participant: z.string(),
  visitId: Id,
  visit: z.string(),
  visitIndex: z.int(),
  windowFrom: z.string().nullable(),
  windowTo: z.string().nullable(),
  recording: Id.nullable(),
  reason: MissingReasonEnum.nullable(),
  code: MissingCodeEnum.nullable(),
  detail: z.string().nullable(),
  recordingsInVisit: z.int(),
});
export type VisitRowView = z.infer<typeof VisitRowSchema>;

export const ParticipantVisitsSchema = z.object({
  status: ParticipantStatusSchema,
  history: z.array(
    z.object({
      status: z.enum(PARTICIPANT_STATUSES),
      on: z.string(),
      reason: z.string().nullable(),
      recordedAt: z.string(),
    }),
  ),
  recordings: z.array(RecordingVisitSchema),
  visits: z.array(VisitRowSchema),
});
export type ParticipantVisitsView = z.infer<typeof ParticipantVisitsSchema>;

export const CompletenessSchema = z.object({
  studyId: Id,
  /** The date the table was computed for, in the study's time zone. */
  today: z.string(),
  participants: z.int(),
  lines: z.array(
    z.object({
      visitId: Id,
      visit: z.string(),
      visitIndex: z.int(),
      expected: z.int(),
      present: z.int(),
      missing: z.record(MissingReasonEnum, z.int()),
    }),
  ),
});
export type CompletenessView = z.infer<typeof CompletenessSchema>;

const VisitInputSchema = strict({
  name: plainText(LIMITS.label).min(1),
  targetDay: boundedInt(-MAX_DAY, MAX_DAY),
  windowBefore: boundedInt(0, MAX_DAY),
  windowAfter: boundedInt(0, MAX_DAY),
});

const DESIGN_AFFECTS = [
  'visits',
  // Each session's visit and days since baseline on the participant's timeline.
  'timeline',
  'participants.page',
  'participants.get',
  'studies.get',
  'studies.list',
] as const;

export const visitsContract = {
  'visits.design': procedure(strict({ studyId: Id }), StudyDesignSchema),
  /** The study's period (either end may be open) and the time zone its calendar days are counted in. */
  'visits.setPeriod': action(
    strict({
      studyId: Id,
      startDate: DateText.nullable(),
      endDate: DateText.nullable(),
      timeZone: TimeZoneText,
    }),
    StudyDesignSchema,
    DESIGN_AFFECTS,
  ),
  /** Replaces the schedule; a visit keeps its overrides when its name is kept. */
  'visits.setSchedule': action(
    strict({ studyId: Id, visits: listOf(VisitInputSchema, MAX_VISITS) }),
    StudyDesignSchema,
    DESIGN_AFFECTS,
  ),
  'visits.statuses': procedure(strict({ studyId: Id }), z.array(ParticipantStatusSchema)),
  'visits.participant': procedure(strict({ participantId: Id }), ParticipantVisitsSchema),
  /** A withdrawal needs its reason. */
  'visits.setStatus': action(
    strict({
      participantId: Id,
      status: z.enum(PARTICIPANT_STATUSES),
      on: DateText,
      reason: plainText(LIMITS.label).optional(),
    }),
    ParticipantStatusSchema,
    DESIGN_AFFECTS,
  ),
  /** Sets the participant's day 0 (null: back to their first usable recording). */
  'visits.setBaseline': action(
    strict({ participantId: Id, date: DateText.nullable() }),
    ParticipantStatusSchema,
    DESIGN_AFFECTS,
  ),
  /** The researcher's visit for a recording (a visit, or null for "no visit"), or `clear` to go back to the rules. */
  'visits.setAssignment': action(
    strict({ recordingId: Id, visitId: Id.nullable().optional(), clear: z.boolean().optional() }),
    RecordingVisitSchema,
    DESIGN_AFFECTS,
  ),
  'visits.completeness': procedure(strict({ studyId: Id }), CompletenessSchema),
} as const;
