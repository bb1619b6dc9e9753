/**
 * Merging a participant entered twice into the other (the rules are in participant-curation.service.ts
 * and docs/curation.md), its preview, and undoing it.
 */
import type { MergePreview } from '../../../shared/curation';
import { err, ok, type Result } from '../../../shared/result';
import { writeAttributes } from '../../db/repos/cohort.repo';
import {
  moveRecording,
  nextCurationActId,
  type CurationActRow,
  type ProvenanceNote,
} from '../../db/repos/curation.repo';
import {
  attributesOfParticipant,
  mergeParticipant,
  recordingsOfParticipant,
  setMergedInto,
  type MergedRecording,
  type MergeParticipant,
} from '../../db/repos/participant-merge.repo';
import { setBaselineDate } from '../../db/repos/participant-status.repo';
import type { Queryable } from '../../db/store/types';
import { problem, type ServiceProblem } from '../service-context';
import { SENT_STATES, requiredReason, type ActContext, type ActResult } from './acts';

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

const wasSent = (r: { uploadState: string; serviceRecordingId: string | null }): boolean =>
  SENT_STATES.has(r.uploadState) || r.serviceRecordingId !== null;

/** The two participants of a merge, if they are two participants of one study. */
const mergeSides = async (
  q: Queryable,
  fromId: number,
  intoId: number,
): Promise<Result<{ from: MergeParticipant; into: MergeParticipant }, ServiceProblem>> => {
  const from = await mergeParticipant(q, fromId);
  const into = await mergeParticipant(q, intoId);
  if (!from || !into)
    return err(problem('There is no such participant.', 'Check the codes (voicescope status lists them).'));
  if (from.studyId !== into.studyId)
    return err(problem('The two participants are in different studies.', 'Merge participants of one study.'));
  if (from.id === into.id)
    return err(problem('A participant cannot be merged into itself.', 'Choose the other participant.'));
  return ok({ from, into });
};

/** Why the merge cannot be done as it stands; null when it can. */
const mergeRefusal = (
  from: MergeParticipant,
  into: MergeParticipant,
  uploading: number,
  sessionClashes: readonly string[],
): string | null =>
  from.mergedInto !== null
    ? `Participant ${from.code} is already merged into another participant.`
    : into.mergedInto !== null
      ? `Participant ${into.code} was merged into another participant; merge into that one instead.`
      : uploading > 0
        ? `${uploading === 1 ? 'A recording' : `${uploading} recordings`} of ${from.code} ${uploading === 1 ? 'is' : 'are'} being uploaded right now; wait until the upload has finished.`
        : sessionClashes.length > 0
          ? `Both participants have recordings in session ${sessionClashes.join(', ')}: relabel one side first (voicescope curate reassign --recording <id> --session <label>), or exclude or delete the extra recording.`
          : null;

export const previewMerge =
  (c: ActContext) =>
  async (fromId: number, intoId: number): Promise<Result<MergePreview, ServiceProblem>> => {
    const { store } = c;
    const s = await mergeSides(store, fromId, intoId);
    if (!s.ok) return s;
    const { from, into } = s.value;
    const fromRecs = await recordingsOfParticipant(store, from.id);
    const intoRecs = await recordingsOfParticipant(store, into.id);
    const intoLabels = new Set(intoRecs.map((r) => r.session).filter((l): l is string => l !== null));
    const sessionClashes = [
      ...new Set(fromRecs.map((r) => r.session).filter((l): l is string => l !== null && intoLabels.has(l))),
    ].sort();
    const intoByHash = new Map(intoRecs.map((r) => [r.contentSha256, r.id]));
    const duplicates = fromRecs
      .filter((r) => intoByHash.has(r.contentSha256))
      .map((r) => ({ from: r.id, into: intoByHash.get(r.contentSha256)! }));
    const fa = await attributesOfParticipant(store, from.id);
    const ia = await attributesOfParticipant(store, into.id);
    const attributeConflicts = Object.keys(fa)
      .filter((k) => ia[k] !== undefined && ia[k] !== fa[k])
      .map((key) => ({ key, from: fa[key]!, into: ia[key]! }));
    const uploading = fromRecs.filter((r) => r.uploadState === 'uploading').length;
    return ok({
      from: { id: from.id, code: from.code },
      into: { id: into.id, code: into.code },
      recordings: fromRecs.length,
      sent: fromRecs.filter(wasSent).length,
      sessionClashes,
      duplicates,
      attributeConflicts,
      refusal: mergeRefusal(from, into, uploading, sessionClashes),
    });
  };

/** What a merge will do, read before it is written: both sides as they are, and what moves. */
interface MergePlan {
  readonly from: MergeParticipant;
  readonly into: MergeParticipant;
  readonly fromAttrs: Record<string, string>;
  readonly intoAttrs: Record<string, string>;
  /** Attributes only `from` has, copied over. */
  readonly copied: string[];
  readonly recs: readonly MergedRecording[];
  /** The recordings already sent, analysed under `from`'s account. */
  readonly sent: ReadonlySet<number>;
  readonly at: string;
  /** The survivor's baseline date; `from`'s only when it has none. */
  readonly baseline: string | null;
  readonly before: MergeState;
}

const mergePlan = async (c: ActContext, fromId: number, intoId: number): Promise<MergePlan> => {
  const { store } = c;
  const from = (await mergeParticipant(store, fromId))!;
  const into = (await mergeParticipant(store, intoId))!;
  const fromAttrs = await attributesOfParticipant(store, from.id);
  const intoAttrs = await attributesOfParticipant(store, into.id);
  const copied = Object.keys(fromAttrs).filter((k) => intoAttrs[k] === undefined);
  const recs = await recordingsOfParticipant(store, from.id);
  const sent = new Set(recs.filter(wasSent).map((r) => r.id));
  const at = c.iso();
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
  return { from, into, fromAttrs, intoAttrs, copied, recs, sent, at, baseline, before };
};

/** What the researcher must know after the merge: results analysed under the other account, duplicates, attributes kept. */
const mergeWarnings = (plan: MergePlan, preview: MergePreview): string | null => {
  const { from, into, sent } = plan;
  const warnings: string[] = [];
  if (sent.size > 0)
    warnings.push(
      `The service analysed ${sent.size === 1 ? '1 of these recordings' : `${sent.size} of these recordings`} under participant ${from.code}'s account; the results stay as the service gave them, and each recording's provenance now says so.`,
    );
  if (preview.duplicates.length > 0)
    warnings.push(
      `The same audio is under both participants: ${preview.duplicates.map((d) => `recording ${d.from} (was ${from.code}) and recording ${d.into}`).join('; ')}. Exclude or delete the extra copy.`,
    );
  if (preview.attributeConflicts.length > 0)
    warnings.push(
      `Kept ${into.code}'s ${preview.attributeConflicts.map((c) => `${c.key} "${c.into}" (not "${c.from}")`).join(', ')}.`,
    );
  return warnings.length ? warnings.join(' ') : null;
};

/** The merge's after, for the act `act` (the provenance notes of sent recordings name it). */
const mergeAfter = (plan: MergePlan, act: number, duplicates: MergePreview['duplicates']): MergeAfter => {
  const { from, into, fromAttrs, intoAttrs, copied, at, before } = plan;
  const moved: MovedRecording[] = plan.recs.map((r) => ({
    id: r.id,
    provenance: plan.sent.has(r.id)
      ? [
          ...r.provenance,
          {
            at,
            act,
            note: `Merged from participant ${from.code} into ${into.code} after upload: the service analysed it under ${from.code}'s account.`,
          },
        ]
      : r.provenance,
  }));
  return {
    from: { ...before.from, mergedInto: into.id },
    into: {
      ...before.into,
      baselineDate: plan.baseline,
      attributes: { ...intoAttrs, ...Object.fromEntries(copied.map((k) => [k, fromAttrs[k]!])) },
    },
    recordings: moved,
    copied,
    duplicates,
  };
};

/** Moves the recordings, copies the attributes and the baseline date, and marks `from` merged. */
const applyMerge = async (tx: Queryable, plan: MergePlan, after: MergeAfter): Promise<void> => {
  const { from, into, fromAttrs, copied, at, baseline } = plan;
  const sessions = new Map(plan.recs.map((r) => [r.id, r.session]));
  for (const m of after.recordings)
    await moveRecording(tx, m.id, into.id, sessions.get(m.id) ?? null, m.provenance);
  await writeAttributes(
    tx,
    copied.map((key) => ({ participantId: into.id, key, value: fromAttrs[key]! })),
    at,
  );
  if (baseline !== into.baselineDate) await setBaselineDate(tx, into.id, baseline);
  await setMergedInto(tx, from.id, into.id, at);
};

export const mergeParticipants = (c: ActContext) => {
  const preview = previewMerge(c);
  return async (fromId: number, intoId: number, reasonIn: string): ActResult => {
    const { store, recordIn } = c;
    const reason = requiredReason(
      c,
      reasonIn,
      problem(
        'Say why these participants are merged.',
        'Give a reason such as "entered twice: P-017 is P-007".',
      ),
    );
    if (!reason.ok) return reason;
    const p = await preview(fromId, intoId);
    if (!p.ok) return p;
    if (p.value.refusal !== null)
      return err(problem(`The merge cannot be done: ${p.value.refusal}`, 'Mend that, then merge again.'));
    const plan = await mergePlan(c, fromId, intoId);
    const { from, into, recs, sent } = plan;
    const warning = mergeWarnings(plan, p.value);
    const act = await store.transaction(
      async (tx) => {
        // The act's id is the next one: the provenance notes name it so the export can join the two.
        const after = mergeAfter(plan, await nextCurationActId(tx), p.value.duplicates);
        return recordIn(
          tx,
          {
            studyId: from.studyId,
            act: 'merge',
            recordingId: null,
            participantId: from.id,
            reason: reason.value,
            before: plan.before,
            after,
            detail: {
              participant_before: from.id,
              participant_after: into.id,
              recordings: recs.length,
              after_upload: sent.size > 0,
              duplicates: p.value.duplicates.length,
            },
          },
          (t) => applyMerge(t, plan, after),
        );
      },
      { repeatable: true },
    );
    c.wake();
    return ok({ act, warning });
  };
};

/** Parts the participants again, if they are still as the merge left them. */
export const undoMerge = async (c: ActContext, a: CurationActRow, reason: string | null): ActResult => {
  const { store, iso, record } = c;
  const was = a.after as MergeAfter;
  const back = a.before as MergeState;
  const from = await mergeParticipant(store, was.from.id);
  const into = await mergeParticipant(store, was.into.id);
  const changed = problem(
    'The participants have changed since this merge, so undoing it would overwrite a later change.',
    'Undo the later acts first (newest first), or make the change you want as a new act.',
  );
  if (!from || !into || from.mergedInto !== into.id) return err(changed);
  const intoRecs = await recordingsOfParticipant(store, into.id);
  const still = new Set(intoRecs.map((r) => r.id));
  if (was.recordings.some((r) => !still.has(r.id))) return err(changed);
  const sessions = new Map(intoRecs.map((r) => [r.id, r.session]));
  const now = await attributesOfParticipant(store, into.id);
  const act = await record(
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
    async (tx) => {
      for (const r of back.recordings)
        await moveRecording(tx, r.id, from.id, sessions.get(r.id) ?? null, r.provenance);
      // Copied attributes go, unless the researcher has changed them since.
      await writeAttributes(
        tx,
        was.copied
          .filter((k) => now[k] === was.into.attributes[k])
          .map((key) => ({ participantId: into.id, key, value: null })),
        iso(),
      );
      if (into.baselineDate === was.into.baselineDate && back.into.baselineDate !== was.into.baselineDate)
        await setBaselineDate(tx, into.id, back.into.baselineDate);
      await setMergedInto(tx, from.id, null, null);
    },
  );
  c.wake();
  return ok({ act, warning: null });
};
