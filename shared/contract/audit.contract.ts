/**
 * The append-only audit log of exports, key changes, a study's archiving or deletion and the researcher's
 * curation acts (reassign, exclude, restore, delete, undo, merge, dismiss, status). Entries carry
 * ids, names of studies or profiles, counts and plain words; never an API key.
 */
import { z } from 'zod';
import { strict } from './bounds';
import { NoInput, procedure } from '../rpc';
import { Id } from './views';

export const AUDIT_KINDS = [
  'key_added',
  'key_replaced',
  'key_removed',
  'key_storage_accepted',
  'export_written',
  'study_archived',
  'study_deleted',
  'diagnostic_on',
  'diagnostic_off',
  'participant_status_changed',
  'visit_schedule_changed',
  'visit_assignment_changed',
  // curation: one entry per act, naming the act (main/curation/) and who did it
  'recording_reassigned',
  'recording_excluded',
  'recording_restored',
  'recording_deleted',
  'recording_sent_anyway',
  'curation_undone',
  'participants_merged',
  'needs_you_dismissed',
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

export const AuditEntrySchema = z.object({
  id: Id,
  at: z.string(),
  kind: z.enum(AUDIT_KINDS),
  profileId: Id.nullable(),
  studyId: Id.nullable(),
  subject: z.string().nullable(),
  detail: z.record(z.string(), z.union([z.number(), z.boolean(), z.null(), z.string()])),
});
export type AuditEntryView = z.infer<typeof AuditEntrySchema>;

/** Whether the audit log's hash chain holds: each entry carries the hash of the one before it. */
export const AuditVerificationSchema = z.discriminatedUnion('holds', [
  z.object({ holds: z.literal(true), entries: z.int().nonnegative() }),
  z.object({
    holds: z.literal(false),
    entries: z.int().nonnegative(),
    /** The first entry that does not fit: its own fields were changed, or an entry before it was changed or removed. */
    firstBroken: z.object({ id: Id, at: z.string(), kind: z.string() }),
    reason: z.enum(['changed', 'predecessor_missing_or_changed']),
    /** What happened, in the researcher's words. */
    message: z.string(),
    /** What to do about it. */
    action: z.string(),
  }),
]);
export type AuditVerification = z.infer<typeof AuditVerificationSchema>;

export const auditContract = {
  'audit.list': procedure(
    strict({ offset: z.int().min(0).default(0), limit: z.int().min(1).max(200).default(50) }),
    z.object({ rows: z.array(AuditEntrySchema), total: z.int().nonnegative() }),
  ),
  /** Checks the whole hash chain now (reads only). */
  'audit.verify': procedure(NoInput, AuditVerificationSchema),
} as const;
