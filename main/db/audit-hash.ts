/**
 * The audit log's hash chain (migration 0070): each entry's hash covers its own fields and the hash of
 * the entry before it, so changing, removing or reordering an entry breaks every hash after it. The
 * first entry's previous hash is the empty string. This is the one definition: the migration that
 * filled the chain for older entries and the repository that appends and verifies both use it.
 *
 * Since migration 0210 an entry also names who wrote it (the member's database login), the workstation
 * and the participant's site. An entry that names none of the three (every entry written before) is
 * hashed over its first seven fields only, so older chains still verify; any other entry's hash
 * covers all ten.
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
  /** The member's database login (null on SQLite and in entries before migration 0210). */
  readonly member?: string | null;
  readonly workstation?: string | null;
  readonly site_code?: string | null;
}

const identity = (e: ChainedFields): (string | null)[] => {
  const named = [e.member ?? null, e.workstation ?? null, e.site_code ?? null];
  return named.every((v) => v === null) ? [] : named;
};

export const auditEntryHash = (prevHash: string, e: ChainedFields): string =>
  createHash('sha256')
    .update(
      JSON.stringify([
        prevHash,
        e.id,
        e.at,
        e.kind,
        e.profile_id,
        e.study_id,
        e.subject,
        e.detail,
        ...identity(e),
      ]),
      'utf8',
    )
    .digest('hex');
