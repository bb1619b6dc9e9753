/**
 * How every curation act is written (each act with its undo in main/services/curation/, the needs-you
 * list's in needs-you-curation.service.ts): the reason checked, then in one transaction the
 * change, a `curation_acts` row (who, when, reason, before and after) and an entry in the hash-chained
 * audit log naming the act and a digest of its row.
 */
import type { AuditKind } from '../../shared/contract/audit.contract';
import { MAX_CURATION_REASON, type CurationActKind, type CurationActView } from '../../shared/curation';
import { err, ok, type Result } from '../../shared/result';
import { actDigest } from './act-digest';
import { asPlainWord, operatingSystemUser } from './operator';
import { appendAudit, type AuditDetail } from '../db/repos/audit.repo';
import { insertCurationAct, setCurationAudit, type CurationActRow } from '../db/repos/curation.repo';
import { studyName } from '../db/repos/studies.repo';
import type { Queryable, Store } from '../db/store/types';
import { problem, type ServiceProblem } from '../problem';

export const AUDIT_KIND: Record<CurationActKind, AuditKind> = {
  reassign: 'recording_reassigned',
  exclude: 'recording_excluded',
  restore: 'recording_restored',
  delete_unsent: 'recording_deleted',
  send_anyway: 'recording_sent_anyway',
  undo: 'curation_undone',
  merge: 'participants_merged',
  dismiss: 'needs_you_dismissed',
  status: 'participant_status_changed',
};

export interface ActToRecord {
  readonly studyId: number;
  readonly act: CurationActKind;
  readonly recordingId: number | null;
  readonly participantId?: number | null;
  readonly reason: string | null;
  readonly before: unknown;
  readonly after: unknown;
  readonly undoes?: number | null;
  readonly detail?: AuditDetail;
  /** The kind of act undone (for an undo's audit entry). */
  readonly undone?: CurationActKind;
}

export const toActView = (a: CurationActRow): CurationActView => ({
  id: a.id,
  at: a.at,
  who: a.who,
  act: a.act,
  recordingId: a.recordingId,
  participantId: a.participantId,
  reason: a.reason,
  before: a.before,
  after: a.after,
  undoes: a.undoes,
  undoneBy: a.undoneBy,
  undoable: a.act !== 'undo' && a.undoneBy === null,
  auditId: a.auditId,
});

/** What the recorder needs of the service that uses it (a ServiceContext has it). */
export interface RecorderContext {
  readonly store: Store;
  /** The clock as ISO 8601. */
  readonly iso: () => string;
  /** Who acts are recorded as done by; by default the operating-system user. */
  readonly options: { readonly operator?: string };
}

export const curationRecorder = (ctx: RecorderContext) => {
  const { store, iso } = ctx;
  const who = (): string => ctx.options.operator ?? operatingSystemUser();

  const cleanReason = (reason: string | undefined): Result<string | null, ServiceProblem> => {
    const r = reason?.trim() ?? '';
    if (r.length > MAX_CURATION_REASON)
      return err(problem(`The reason is longer than ${MAX_CURATION_REASON} characters.`, 'Shorten it.'));
    if (/[\u0000-\u001f\u007f]/.test(r))
      return err(problem('The reason holds control characters.', 'Write it on one line of plain text.'));
    return ok(r === '' ? null : r);
  };

  /**
   * Writes the act and its audit entry inside the caller's transaction `tx`, after `change` applied it
   * there; for an act that must read something in the same transaction first (its own id).
   */
  const recordIn = async (tx: Queryable, a: ActToRecord, change: (tx: Queryable) => Promise<unknown>) => {
    await change(tx);
    const fields = {
      studyId: a.studyId,
      at: iso(),
      who: who(),
      act: a.act,
      recordingId: a.recordingId,
      participantId: a.participantId ?? null,
      reason: a.reason,
      before: JSON.stringify(a.before),
      after: JSON.stringify(a.after),
      undoes: a.undoes ?? null,
    };
    const id = await insertCurationAct(tx, fields);
    const auditId = await appendAudit(tx, {
      at: fields.at,
      kind: AUDIT_KIND[a.act],
      studyId: a.studyId,
      subject: await studyName(tx, a.studyId),
      detail: {
        act: id,
        ...(a.recordingId !== null ? { recording: a.recordingId } : {}),
        ...(fields.participantId !== null ? { participant_id: fields.participantId } : {}),
        who: asPlainWord(fields.who),
        digest: actDigest(id, fields),
        ...(a.undoes != null ? { undoes: a.undoes, undone: a.undone ?? null } : {}),
        ...a.detail,
      },
      about: { participantId: fields.participantId, recordingId: a.recordingId },
    });
    await setCurationAudit(tx, id, auditId);
    return id;
  };

  /**
   * Writes the act and its audit entry; `change` applies it (all in one transaction, which touches
   * only the database and so may be repeated).
   */
  const record = (a: ActToRecord, change: (tx: Queryable) => Promise<unknown>): Promise<number> =>
    store.transaction((tx) => recordIn(tx, a, change), { repeatable: true });

  return { who, cleanReason, record, recordIn };
};
