/**
 * Participants: the researcher's pseudonymous codes, each linked to one service account. Lists are
 * paged in the main process; only a page of rows ever crosses IPC.
 */
import { z } from 'zod';
import { ApiError } from '../api/api-error';
import { codeRef, codeText, labelText, LIMITS, listOf, multilineText, SiteCode, strict } from './bounds';
import { action, procedure } from '../rpc';
import { Id } from './views';

export const RecencySchema = z.object({
  /**
   * From the study's visit schedule and the last usable recording (uploaded, with a completed
   * analysis), by shared/recency.ts: never: none yet and no visit missed; on_track: no visit missed;
   * overdue: a visit's window closed without a recording; no_schedule: the study has no schedule, so
   * only the time since the last recording is known; not_followed: the participant is not active
   * (enrolled, completed, withdrawn) or the study's period is not running.
   */
  status: z.enum(['never', 'on_track', 'overdue', 'no_schedule', 'not_followed']),
  daysSinceLast: z.number().nullable(),
  missedVisits: z.number(),
});

export const ParticipantRowSchema = z.object({
  id: Id,
  code: z.string(),
  accountId: z.string().nullable(),
  recordings: z.number(),
  /** Recordings whose every requested analysis has completed. */
  completed: z.number(),
  /** Recordings needing the researcher (refused, rejected, uncertain, duplicate held). */
  needsAttention: z.number(),
  firstRecordingAt: z.string().nullable(),
  lastRecordingAt: z.string().nullable(),
  recency: RecencySchema,
  notes: z.string(),
  createdAt: z.string(),
  /** The participant this one was merged into (curation, "entered twice"); null while it stands on its own. */
  mergedInto: z.object({ id: Id, code: z.string() }).nullable(),
  /** The participant's site (team.sites names it); the study's default site outside a team study. */
  site: z.string(),
});
export type ParticipantRow = z.infer<typeof ParticipantRowSchema>;

export const PARTICIPANT_SORTS = ['code', 'recordings', 'last_recording', 'created'] as const;
export const PARTICIPANT_FILTERS = ['all', 'overdue', 'never', 'no_account', 'needs_attention'] as const;

export const PageWindow = { offset: z.int().min(0), limit: z.int().min(1).max(500) };
export const SortDir = z.enum(['asc', 'desc']);

const Code = codeText();

const AccountProblemSchema = z.object({
  code: z.string(),
  error: ApiError,
  summary: z.string(),
  action: z.string(),
});

export const AccountReportSchema = z.object({
  created: z.array(z.object({ code: z.string(), accountId: z.string() })),
  failed: z.array(AccountProblemSchema),
  /** Requests whose outcome is unknown: the participant is "account uncertain" and the researcher decides. */
  uncertain: z.array(AccountProblemSchema),
  possibleOrphans: z.number(),
});

/** A participant whose account request has an unknown outcome: what is known, for the researcher's decision. */
export const UncertainAccountSchema = z.object({
  participantId: Id,
  participantCode: z.string(),
  requestedAt: z.string(),
  reason: z.string(),
  error: ApiError.nullable(),
  resolution: z.enum(['leave']).nullable(),
});

export const participantsContract = {
  'participants.page': procedure(
    strict({
      studyId: Id,
      search: labelText().optional(),
      filter: z.enum(PARTICIPANT_FILTERS).optional(),
      /** A team study's site: only its participants. */
      site: SiteCode.optional(),
      sort: z.enum(PARTICIPANT_SORTS),
      dir: SortDir,
      ...PageWindow,
    }),
    z.object({ rows: z.array(ParticipantRowSchema), total: z.number() }),
  ),
  'participants.get': procedure(strict({ participantId: Id }), ParticipantRowSchema.extend({ studyId: Id })),
  'participants.create': action(strict({ studyId: Id, code: Code }), ParticipantRowSchema, [
    'participants.page',
    'studies.get',
    'studies.list',
  ]),
  'participants.rename': action(strict({ participantId: Id, code: Code }), ParticipantRowSchema, [
    'participants.page',
    'participants.get',
    'timeline.participant',
    'recordings.page',
  ]),
  'participants.setNotes': action(
    strict({ participantId: Id, notes: multilineText(LIMITS.notes) }),
    ParticipantRowSchema,
    ['participants.page', 'participants.get'],
  ),
  /** Links an account that already exists on the service (e.g. created in another tool) instead of creating one. */
  'participants.linkAccount': action(
    strict({ participantId: Id, accountId: z.guid('An account id is a UUID, e.g. 3f2b…-….') }),
    ParticipantRowSchema,
    [
      'participants.page',
      'participants.get',
      'timeline.participant',
      'recordings.page',
      'studies.get',
      'participants.uncertainAccounts',
    ],
  ),
  /** Creates a service account for each participant without one (all, or the codes given): one request each. */
  'participants.createAccounts': action(
    strict({ studyId: Id, codes: listOf(codeRef(), LIMITS.codes).optional() }),
    AccountReportSchema,
    [
      'participants.page',
      'participants.get',
      'studies.get',
      'recordings.page',
      'participants.uncertainAccounts',
    ],
  ),
  /** The study's participants whose account request has an unknown outcome ("account uncertain"). */
  'participants.uncertainAccounts': procedure(strict({ studyId: Id }), z.array(UncertainAccountSchema)),
  /**
   * The researcher's decision on an uncertain account: `retry` asks the service again (a second account
   * may be created); `leave` keeps the participant without an account and withdraws its waiting files.
   * Linking an account id found by other means is participants.linkAccount.
   */
  'participants.resolveUncertainAccount': action(
    strict({ participantId: Id, decision: z.enum(['retry', 'leave']) }),
    z.object({ resolved: z.boolean() }),
    [
      'participants.uncertainAccounts',
      'participants.page',
      'participants.get',
      'studies.get',
      'recordings.page',
    ],
  ),
} as const;
