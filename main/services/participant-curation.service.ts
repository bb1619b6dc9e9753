/**
 * Curation of participants: merge a participant entered twice into the other. Every act is a
 * curation act with who, when, why, before and after, and an entry in the audit log
 * (main/services/curation-recorder.ts); undo goes through the curation service's `undoCuration`, which
 * hands participant acts to `undoParticipantAct` here.
 *
 * The merge's rules (docs/curation.md, "Merging two participants"):
 * - both participants are of the same study, neither is merged already, and none of the first one's
 *   recordings is being uploaded;
 * - a session label that both participants have recordings in is a clash: the merge is refused, naming
 *   the labels, until the researcher relabels (`curate reassign --session`), excludes or deletes one side;
 * - the same audio under both (content hash) is surfaced, not refused: the researcher decides afterwards;
 * - attributes: the surviving participant's value is kept where both have the key; keys only the first
 *   has are copied over. Status and baseline date: the survivor's; its baseline date is taken from the
 *   first only when it has none;
 * - recordings already sent were analysed under the first participant's service account: the act warns
 *   and each such recording's provenance says so, as a reassignment after upload does;
 * - the first participant is kept, marked merged into the other (not deleted), so that undo restores both.
 */
import type { CurationActView, CurationDone, MergePreview } from '../../shared/curation';
import { err, ok, type Result } from '../../shared/result';
import { writeAttributes } from '../db/repos/cohort.repo';
import {
  curationActsOfParticipant,
  moveRecording,
  nextCurationActId,
  participantIdByCode,
  type ProvenanceNote,
} from '../db/repos/curation.repo';
import {
  attributesOfParticipant,
  mergeParticipant,
  recordingsOfParticipant,
  setMergedInto,
  type MergeParticipant,
} from '../db/repos/participant-merge.repo';
import {
  participantStatus,
  restoreParticipantStatus,
  setBaselineDate,
  writeParticipantStatus,
} from '../db/repos/participant-status.repo';
import { UPLOAD_STATES_SENT, type ParticipantStatus } from '../../shared/states';
import type { CurationActRow } from '../db/repos/curation.repo';
import type { Engine } from './engine.service';
import { curationRecorder, toActView } from '../curation/recorder';
import { problem, type ServiceContext, type ServiceProblem } from './service-context';

export interface ParticipantCurationService {
  /** What merging `fromId` into `intoId` would do, and why it cannot be done if it cannot. */
  previewMerge(fromId: number, intoId: number): Result<MergePreview, ServiceProblem>;
  /** Merges a participant entered twice into the other (see the rules above); a reason is required. */
  mergeParticipants(fromId: number, intoId: number, reason: string): Result<CurationDone, ServiceProblem>;
  /** The participant of a study with this code (the command line names participants by code). */
  participantIdOfStudy(studyId: number, code: string): number | null;
  /** A participant's acts (merges from or into it, status changes, their undos), newest first. */
  curationOfParticipant(participantId: number): CurationActView[];
}

/** Undoes a participant act (the curation service's undo calls it); null when the act is not one. */
export type UndoParticipantAct = (
  a: CurationActRow,
  reason: string | null,
) => Result<CurationDone, ServiceProblem> | null;

/** Upload states in which something of the recording may have reached the service. */
const SENT_STATES = new Set<string>(UPLOAD_STATES_SENT);

interface MergeSide {
  readonly id: number;
  readonly code: string;
  readonly baselineDate: string | null;
  readonly attributes: Record<string, string>;
}
interface MovedRecording {
  readonly id: number;
  readonly provenance: readonly ProvenanceNote[];
}
/** A merge's before and after, as its act keeps them. */
interface MergeState {
  readonly from: MergeSide & { readonly mergedInto: number | null };
  readonly into: MergeSide;
  readonly recordings: readonly MovedRecording[];
}
interface MergeAfter extends MergeState {
  /** Attributes copied from `from` to `into` (undo removes them). */
  readonly copied: readonly string[];
  readonly duplicates: MergePreview['duplicates'];
}

/** A participant's status as a status act keeps it before and after. */
interface StatusState {
  readonly status: ParticipantStatus;
  readonly on: string | null;
  readonly reason: string | null;
}

/**
 * Changes a participant's status as a curation act (who, when, before, after, the audit entry
 * `participant_status_changed`), undoable from the participant's acts; false when there is no such
 * participant. The rules on the change itself (a withdrawal needs its reason) are the visits service's.
 */
export const changeStatusAsAct = (
  ctx: ServiceContext,
  participantId: number,
  change: { status: ParticipantStatus; on: string; reason: string | null },
): boolean => {
  const p = participantStatus(ctx.db, participantId);
  if (!p) return false;
  const { record } = curationRecorder(ctx);
  const at = ctx.iso();
  const before: StatusState = { status: p.status, on: p.statusOn, reason: p.statusReason };
  ctx.db.transaction(() => {
    // The change first, so that its history row's id goes into the act (undo removes that row).
    const history = writeParticipantStatus(ctx.db, participantId, change, at);
    record(
      {
        studyId: p.studyId,
        act: 'status',
        recordingId: null,
        participantId,
        reason: change.reason,
        before,
        after: { status: change.status, on: change.on, reason: change.reason, history },
        detail: { before: p.status, after: change.status, on: change.on },
      },
      () => undefined,
    );
  })();
  return true;
};

export const participantCurationService = (
  ctx: ServiceContext,
  engine: Engine,
): ParticipantCurationService & { undoParticipantAct: UndoParticipantAct } => {
  const { db, iso } = ctx;
  const { cleanReason, record } = curationRecorder(ctx);

  const sides = (
    fromId: number,
    intoId: number,
  ): Result<{ from: MergeParticipant; into: MergeParticipant }, ServiceProblem> => {
    const from = mergeParticipant(db, fromId);
    const into = mergeParticipant(db, intoId);
    if (!from || !into)
      return err(problem('There is no such participant.', 'Check the codes (voicescope status lists them).'));
    if (from.studyId !== into.studyId)
      return err(
        problem('The two participants are in different studies.', 'Merge participants of one study.'),
      );
    if (from.id === into.id)
      return err(problem('A participant cannot be merged into itself.', 'Choose the other participant.'));
    return ok({ from, into });
  };

  const preview = (fromId: number, intoId: number): Result<MergePreview, ServiceProblem> => {
    const s = sides(fromId, intoId);
    if (!s.ok) return s;
    const { from, into } = s.value;
    const fromRecs = recordingsOfParticipant(db, from.id);
    const intoRecs = recordingsOfParticipant(db, into.id);
    const intoLabels = new Set(intoRecs.map((r) => r.session).filter((l): l is string => l !== null));
    const sessionClashes = [
      ...new Set(fromRecs.map((r) => r.session).filter((l): l is string => l !== null && intoLabels.has(l))),
    ].sort();
    const intoByHash = new Map(intoRecs.map((r) => [r.contentSha256, r.id]));
    const duplicates = fromRecs
      .filter((r) => intoByHash.has(r.contentSha256))
      .map((r) => ({ from: r.id, into: intoByHash.get(r.contentSha256)! }));
    const fa = attributesOfParticipant(db, from.id);
    const ia = attributesOfParticipant(db, into.id);
    const attributeConflicts = Object.keys(fa)
      .filter((k) => ia[k] !== undefined && ia[k] !== fa[k])
      .map((key) => ({ key, from: fa[key]!, into: ia[key]! }));
    const uploading = fromRecs.filter((r) => r.uploadState === 'uploading').length;
    const refusal =
      from.mergedInto !== null
        ? `Participant ${from.code} is already merged into another participant.`
        : into.mergedInto !== null
          ? `Participant ${into.code} was merged into another participant; merge into that one instead.`
          : uploading > 0
            ? `${uploading === 1 ? 'A recording' : `${uploading} recordings`} of ${from.code} ${uploading === 1 ? 'is' : 'are'} being uploaded right now; wait until the upload has finished.`
            : sessionClashes.length > 0
              ? `Both participants have recordings in session ${sessionClashes.join(', ')}: relabel one side first (voicescope curate reassign --recording <id> --session <label>), or exclude or delete the extra recording.`
              : null;
    return ok({
      from: { id: from.id, code: from.code },
      into: { id: into.id, code: into.code },
      recordings: fromRecs.length,
      sent: fromRecs.filter((r) => SENT_STATES.has(r.uploadState) || r.serviceRecordingId !== null).length,
      sessionClashes,
      duplicates,
      attributeConflicts,
      refusal,
    });
  };

  const merge: ParticipantCurationService['mergeParticipants'] = (fromId, intoId, reasonIn) => {
    const reason = cleanReason(reasonIn);
    if (!reason.ok) return reason;
    if (reason.value === null)
      return err(
        problem(
          'Say why these participants are merged.',
          'Give a reason such as "entered twice: P-017 is P-007".',
        ),
      );
    const p = preview(fromId, intoId);
    if (!p.ok) return p;
    if (p.value.refusal !== null)
      return err(problem(`The merge cannot be done: ${p.value.refusal}`, 'Mend that, then merge again.'));
    const from = mergeParticipant(db, fromId)!;
    const into = mergeParticipant(db, intoId)!;
    const fromAttrs = attributesOfParticipant(db, from.id);
    const intoAttrs = attributesOfParticipant(db, into.id);
    const copied = Object.keys(fromAttrs).filter((k) => intoAttrs[k] === undefined);
    const recs = recordingsOfParticipant(db, from.id);
    const sent = new Set(
      recs.filter((r) => SENT_STATES.has(r.uploadState) || r.serviceRecordingId !== null).map((r) => r.id),
    );
    const at = iso();
    const baseline = into.baselineDate ?? from.baselineDate;
    const before: MergeState = {
      from: {
        id: from.id,
        code: from.code,
        baselineDate: from.baselineDate,
        attributes: fromAttrs,
        mergedInto: null,
      },
      into: { id: into.id, code: into.code, baselineDate: into.baselineDate, attributes: intoAttrs },
      recordings: recs.map((r) => ({ id: r.id, provenance: r.provenance })),
    };
    const warnings: string[] = [];
    if (sent.size > 0)
      warnings.push(
        `The service analysed ${sent.size === 1 ? '1 of these recordings' : `${sent.size} of these recordings`} under participant ${from.code}'s account; the results stay as the service gave them, and each recording's provenance now says so.`,
      );
    if (p.value.duplicates.length > 0)
      warnings.push(
        `The same audio is under both participants: ${p.value.duplicates.map((d) => `recording ${d.from} (was ${from.code}) and recording ${d.into}`).join('; ')}. Exclude or delete the extra copy.`,
      );
    if (p.value.attributeConflicts.length > 0)
      warnings.push(
        `Kept ${into.code}'s ${p.value.attributeConflicts.map((c) => `${c.key} "${c.into}" (not "${c.from}")`).join(', ')}.`,
      );
    const act = db.transaction(() => {
      // The act's id is the next one: the provenance notes name it so the export can join the two.
      const next = nextCurationActId(db);
      const moved: MovedRecording[] = recs.map((r) => ({
        id: r.id,
        provenance: sent.has(r.id)
          ? [
              ...r.provenance,
              {
                at,
                act: next,
                note: `Merged from participant ${from.code} into ${into.code} after upload: the service analysed it under ${from.code}'s account.`,
              },
            ]
          : r.provenance,
      }));
      const after: MergeAfter = {
        from: { ...before.from, mergedInto: into.id },
        into: {
          ...before.into,
          baselineDate: baseline,
          attributes: { ...intoAttrs, ...Object.fromEntries(copied.map((k) => [k, fromAttrs[k]!])) },
        },
        recordings: moved,
        copied,
        duplicates: p.value.duplicates,
      };
      return record(
        {
          studyId: from.studyId,
          act: 'merge',
          recordingId: null,
          participantId: from.id,
          reason: reason.value,
          before,
          after,
          detail: {
            participant_before: from.id,
            participant_after: into.id,
            recordings: recs.length,
            after_upload: sent.size > 0,
            duplicates: p.value.duplicates.length,
          },
        },
        () => {
          const sessions = new Map(recs.map((r) => [r.id, r.session]));
          for (const m of moved) moveRecording(db, m.id, into.id, sessions.get(m.id) ?? null, m.provenance);
          writeAttributes(
            db,
            copied.map((key) => ({ participantId: into.id, key, value: fromAttrs[key]! })),
            at,
          );
          if (baseline !== into.baselineDate) setBaselineDate(db, into.id, baseline);
          setMergedInto(db, from.id, into.id, at);
        },
      );
    })();
    engine.service.wake();
    return ok({ act, warning: warnings.length ? warnings.join(' ') : null });
  };

  const undoStatus = (a: CurationActRow, reason: string | null): Result<CurationDone, ServiceProblem> => {
    const was = a.after as StatusState & { history: number };
    const back = a.before as StatusState;
    const now = participantStatus(db, a.participantId!);
    if (!now || now.status !== was.status || now.statusOn !== was.on || now.statusReason !== was.reason)
      return err(
        problem(
          "The participant's status has changed since, so undoing this change would overwrite a later one.",
          'Undo the later change first, or set the status you want as a new change.',
        ),
      );
    const act = record(
      {
        studyId: a.studyId,
        act: 'undo',
        recordingId: null,
        participantId: now.id,
        reason,
        undoes: a.id,
        undone: 'status',
        before: was,
        after: back,
        detail: { before: was.status, after: back.status },
      },
      () => restoreParticipantStatus(db, now.id, back, was.history),
    );
    return ok({ act, warning: null });
  };

  const undoMerge = (a: CurationActRow, reason: string | null): Result<CurationDone, ServiceProblem> => {
    const was = a.after as MergeAfter;
    const back = a.before as MergeState;
    const from = mergeParticipant(db, was.from.id);
    const into = mergeParticipant(db, was.into.id);
    const changed = problem(
      'The participants have changed since this merge, so undoing it would overwrite a later change.',
      'Undo the later acts first (newest first), or make the change you want as a new act.',
    );
    if (!from || !into || from.mergedInto !== into.id) return err(changed);
    const still = new Set(recordingsOfParticipant(db, into.id).map((r) => r.id));
    if (was.recordings.some((r) => !still.has(r.id))) return err(changed);
    const sessions = new Map(recordingsOfParticipant(db, into.id).map((r) => [r.id, r.session]));
    const now = attributesOfParticipant(db, into.id);
    const act = record(
      {
        studyId: a.studyId,
        act: 'undo',
        recordingId: null,
        participantId: from.id,
        reason,
        undoes: a.id,
        undone: 'merge',
        before: { from: { id: from.id, mergedInto: into.id }, into: { id: into.id } },
        after: back,
        detail: {
          participant_before: into.id,
          participant_after: from.id,
          recordings: back.recordings.length,
        },
      },
      () => {
        for (const r of back.recordings)
          moveRecording(db, r.id, from.id, sessions.get(r.id) ?? null, r.provenance);
        // Copied attributes go, unless the researcher has changed them since.
        writeAttributes(
          db,
          was.copied
            .filter((k) => now[k] === was.into.attributes[k])
            .map((key) => ({ participantId: into.id, key, value: null })),
          iso(),
        );
        if (into.baselineDate === was.into.baselineDate && back.into.baselineDate !== was.into.baselineDate)
          setBaselineDate(db, into.id, back.into.baselineDate);
        setMergedInto(db, from.id, null, null);
      },
    );
    engine.service.wake();
    return ok({ act, warning: null });
  };

  return {
    previewMerge: preview,
    mergeParticipants: merge,
    participantIdOfStudy: (studyId, code) => participantIdByCode(db, studyId, code),
    curationOfParticipant: (participantId) => curationActsOfParticipant(db, participantId).map(toActView),
    undoParticipantAct: (a, reason) =>
      a.act === 'merge' ? undoMerge(a, reason) : a.act === 'status' ? undoStatus(a, reason) : null,
  };
};
