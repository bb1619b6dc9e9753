/**
 * The audit log (migration 0060): append and read, nothing else. The detail of an entry may hold only
 * numbers, booleans, null and short plain words, so a caller cannot write a key, a participant code
 * or a file path into it by accident: anything else is refused with an exception (a defect).
 */
import { AUDIT_KINDS, type AuditKind } from '../../../shared/contract/privacy.contract';
import type { Db } from '../open';
import { stmt } from '../statements';

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
}

export interface AuditRow {
  readonly id: number;
  readonly at: string;
  readonly kind: AuditKind;
  readonly profileId: number | null;
  readonly studyId: number | null;
  readonly subject: string | null;
  readonly detail: AuditDetail;
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

export const appendAudit = (db: Db, e: AuditEntry): number => {
  if (!(AUDIT_KINDS as readonly string[]).includes(e.kind)) throw new Error(`unknown audit kind ${e.kind}`);
  const detail = e.detail ?? {};
  checkDetail(detail);
  return Number(
    stmt(
      db,
      `INSERT INTO audit_log (at, kind, profile_id, study_id, subject, detail) VALUES (?, ?, ?, ?, ?, ?)`,
    ).run(e.at, e.kind, e.profileId ?? null, e.studyId ?? null, e.subject ?? null, JSON.stringify(detail))
      .lastInsertRowid,
  );
};

interface RawRow {
  id: number;
  at: string;
  kind: AuditKind;
  profile_id: number | null;
  study_id: number | null;
  subject: string | null;
  detail: string;
}

/** Newest first, one page at a time. */
export const auditPage = (db: Db, offset: number, limit: number): { rows: AuditRow[]; total: number } => {
  const total = (stmt(db, `SELECT count(*) AS n FROM audit_log`).get() as { n: number }).n;
  const rows = (
    stmt(db, `SELECT * FROM audit_log ORDER BY id DESC LIMIT ? OFFSET ?`).all(limit, offset) as RawRow[]
  ).map((r) => ({
    id: r.id,
    at: r.at,
    kind: r.kind,
    profileId: r.profile_id,
    studyId: r.study_id,
    subject: r.subject,
    detail: JSON.parse(r.detail) as AuditDetail,
  }));
  return { rows, total };
};
