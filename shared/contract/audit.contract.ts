/**
 * The append-only audit log of exports, key changes and a study's archiving or deletion. Entries carry
 * ids, names of studies or profiles, counts and plain words; never an API key.
 */
import { z } from 'zod';
import { strict } from './bounds';
import { procedure } from '../rpc';
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

export const auditContract = {
  'audit.list': procedure(
    strict({ offset: z.int().min(0).default(0), limit: z.int().min(1).max(200).default(50) }),
    z.object({ rows: z.array(AuditEntrySchema), total: z.int().nonnegative() }),
  ),
} as const;
