/**
 * The audit log's hash chain (migration 0070): each entry's hash covers its own fields and the hash of
 * the entry before it, so changing, removing or reordering an entry breaks every hash after it. The
 * first entry's previous hash is the empty string. This is the one definition: the migration that
 * filled the chain for older entries and the repository that appends and verifies both use it.
 */
import { createHash } from 'node:crypto';

export interface ChainedFields {
  readonly id: number;
  readonly at: string;
  readonly kind: string;
  readonly profile_id: number | null;
  readonly study_id: number | null;
  readonly subject: string | null;
  /** The detail as stored (JSON text). */
  readonly detail: string;
}

export const auditEntryHash = (prevHash: string, e: ChainedFields): string =>
  createHash('sha256')
    .update(
      JSON.stringify([prevHash, e.id, e.at, e.kind, e.profile_id, e.study_id, e.subject, e.detail]),
      'utf8',
    )
    .digest('hex');
