/**
 * The audit log (migrations 0060 and 0070): append to its hash chain, read, verify; nothing else. The detail of an entry may hold only
 * numbers, booleans, null and short plain words, so a caller cannot write a key, a participant code
 * or a file path into it by accident: anything else is refused with an exception (a defect).
 */
import { AUDIT_KINDS, AuditEntrySchema, type AuditKind } from '../../../shared/contract/audit.contract';
import { workstationName } from '../../workstation-name';
import { auditEntryHash } from '../audit-hash';
import { jsonColumn } from '../json-column';
import type { Queryable, Store } from '../store/types';

export { AUDIT_KINDS, type AuditKind };

export type AuditDetail = Readonly<Record<string, number | boolean | null | string>>;

export interface AuditEntry {
  /** ISO 8601 time. */
  readonly at: string;
  readonly kind: AuditKind;
  readonly profileId?: number | null;
  readonly studyId?: number | null;
  /** The study's or profile's name at the time (kept after a deletion). */
  readonly subject?: string | null;
  readonly detail?: AuditDetail;
  /**
   * The participant or recording the act is about: the entry names that participant's site (and so
   * belongs to the site, on a team database). Neither: a study-wide entry, naming no site.
   */
  readonly about?: { readonly participantId?: number | null; readonly recordingId?: number | null };
}

export interface AuditRow {
  readonly id: number;
  readonly at: string;
  readonly kind: AuditKind;
  readonly profileId: number | null;
  readonly studyId: number | null;
  readonly subject: string | null;
  readonly detail: AuditDetail;
  /** The member's database login (null on SQLite and before migration 0210). */
  readonly member: string | null;
  readonly workstation: string | null;
  readonly siteCode: string | null;
}

/** Plain words: lower-case letters, digits, dash, underscore and dot (a storage kind, a format, a preset). */
const PLAIN_WORD = /^[a-z0-9_.-]{0,40}$/;

const checkDetail = (detail: AuditDetail): void => {
  for (const [k, v] of Object.entries(detail)) {
    if (typeof v === 'string' && !PLAIN_WORD.test(v)) {
      throw new Error(`audit detail "${k}" must be a plain word (no names, codes or paths)`);
    }
    if (typeof v === 'number' && !Number.isFinite(v))
      throw new Error(`audit detail "${k}" must be a finite number`);
  }
};

/**
 * The handle of a transaction, never the store itself: the previous entry's hash is read and the new
 * entry written in the caller's transaction, with the act the entry records, so two writers cannot
 * both claim the same place in the chain and an act is never committed without its entry.
 */
export type AuditTransaction = Queryable & { readonly transaction?: never };

/** The site of the participant (or of the recording's participant) an entry is about. */
const siteOf = async (tx: Queryable, about: AuditEntry['about']): Promise<string | null> => {
  if (about?.participantId != null)
    return (
      (
        await tx.get<{ s: string }>('SELECT site_code AS s FROM participants WHERE id = ?', [
          about.participantId,
        ])
      )?.s ?? null
    );
  if (about?.recordingId != null)
    return (
      (
        await tx.get<{ s: string }>(
          'SELECT p.site_code AS s FROM recordings r JOIN participants p ON p.id = r.participant_id WHERE r.id = ?',
          [about.recordingId],
        )
      )?.s ?? null
    );
  return null;
};

export const appendAudit = async (tx: AuditTransaction, e: AuditEntry): Promise<number> => {
  if (!(AUDIT_KINDS as readonly string[]).includes(e.kind)) throw new Error(`unknown audit kind ${e.kind}`);
  const detail = e.detail ?? {};
  checkDetail(detail);
  const last = (await tx.get<{ id: number | null; hash: string | null; member: string | null }>(
    tx.dialect.auditChainTail.read,
  ))!;
  const fields = {
    id: (last.id ?? 0) + 1,
    at: e.at,
    kind: e.kind,
    profile_id: e.profileId ?? null,
    study_id: e.studyId ?? null,
    subject: e.subject ?? null,
    detail: JSON.stringify(detail),
    member: last.member,
    workstation: workstationName(),
    site_code: await siteOf(tx, e.about),
  };
  const prev = last.hash ?? '';
  await tx.run(
    `INSERT INTO audit_log (id, at, kind, profile_id, study_id, subject, detail, member, workstation, site_code, prev_hash, hash)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      fields.id,
      fields.at,
      fields.kind,
      fields.profile_id,
      fields.study_id,
      fields.subject,
      fields.detail,
      fields.member,
      fields.workstation,
      fields.site_code,
      prev,
      auditEntryHash(prev, fields),
    ],
  );
  return fields.id;
};

/** Appends one entry that records no other change, in a transaction of its own. */
export const appendAuditAlone = (store: Store, e: AuditEntry): Promise<number> =>
  store.transaction((tx) => appendAudit(tx, e), { repeatable: true, appendsUnderLock: true });

export type AuditChainCheck =
  | { readonly ok: true; readonly entries: number }
  | {
      readonly ok: false;
      readonly entries: number;
      /** The first entry that does not fit the chain (its own fields changed, or what came before it). */
      readonly firstBroken: { readonly id: number; readonly at: string; readonly kind: string };
      readonly reason: 'changed' | 'predecessor_missing_or_changed';
    };

/** Walks the whole chain in id order and names the first entry that does not fit. */
export const verifyAuditChain = async (q: Queryable): Promise<AuditChainCheck> => {
  let prev = '';
  let entries = 0;
  for await (const r of q.iterate<RawRow & { prev_hash: string | null; hash: string | null }>(
    `SELECT id, at, kind, profile_id, study_id, subject, detail, member, workstation, site_code, prev_hash, hash
     FROM audit_log ORDER BY id`,
  )) {
    entries += 1;
    const broken = (reason: 'changed' | 'predecessor_missing_or_changed'): AuditChainCheck => ({
      ok: false,
      entries,
      firstBroken: { id: r.id, at: r.at, kind: r.kind },
      reason,
    });
    if (r.prev_hash !== prev) return broken('predecessor_missing_or_changed');
    if (r.hash !== auditEntryHash(prev, r)) return broken('changed');
    prev = r.hash;
  }
  return { ok: true, entries };
};

interface RawRow {
  id: number;
  at: string;
  kind: AuditKind;
  profile_id: number | null;
  study_id: number | null;
  subject: string | null;
  detail: string;
  member: string | null;
  workstation: string | null;
  site_code: string | null;
}

/** Newest first, one page at a time. */
const auditDetail = jsonColumn('audit_log', 'detail', AuditEntrySchema.shape.detail);

export const auditPage = async (
  q: Queryable,
  offset: number,
  limit: number,
): Promise<{ rows: AuditRow[]; total: number }> => {
  const total = (await q.get<{ n: number }>(`SELECT count(*) AS n FROM audit_log`))!.n;
  const rows = (
    await q.all<RawRow>(`SELECT * FROM audit_log ORDER BY id DESC LIMIT ? OFFSET ?`, [limit, offset])
  ).map((r) => ({
    id: r.id,
    at: r.at,
    kind: r.kind,
    profileId: r.profile_id,
    studyId: r.study_id,
    subject: r.subject,
    detail: auditDetail.decode(r.detail),
    member: r.member,
    workstation: r.workstation,
    siteCode: r.site_code,
  }));
  return { rows, total };
};
