/**
 * Curation of participants: merge a participant entered twice into the other. Every act is a
 * curation act with who, when, why, before and after, and an entry in the audit log
 * (main/curation/recorder.ts); undo goes through the curation service's `undoCuration`, which
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
 *
 * The merge is main/services/curation/participant-merge.ts, the status act
 * main/services/curation/participant-status.ts; this service composes them.
 */
import type { CurationActView, CurationDone, MergePreview } from '../../shared/curation';
import type { Result } from '../../shared/result';
import {
  curationActsOfParticipant,
  participantIdByCode,
  type CurationActRow,
} from '../db/repos/curation.repo';
import type { Engine } from './engine.service';
import { toActView } from '../curation/recorder';
import { actContext } from './curation/acts';
import { mergeParticipants, previewMerge, undoMerge } from './curation/participant-merge';
import { undoStatus } from './curation/participant-status';
import type { ServiceContext, ServiceProblem } from './service-context';

export interface ParticipantCurationService {
  /** What merging `fromId` into `intoId` would do, and why it cannot be done if it cannot. */
  previewMerge(fromId: number, intoId: number): Promise<Result<MergePreview, ServiceProblem>>;
  /** Merges a participant entered twice into the other (see the rules above); a reason is required. */
  mergeParticipants(
    fromId: number,
    intoId: number,
    reason: string,
  ): Promise<Result<CurationDone, ServiceProblem>>;
  /** The participant of a study with this code (the command line names participants by code). */
  participantIdOfStudy(studyId: number, code: string): Promise<number | null>;
  /** A participant's acts (merges from or into it, status changes, their undos), newest first. */
  curationOfParticipant(participantId: number): Promise<CurationActView[]>;
}

/** Undoes a participant act (the curation service's undo calls it); null when the act is not one. */
export type UndoParticipantAct = (
  a: CurationActRow,
  reason: string | null,
) => Promise<Result<CurationDone, ServiceProblem>> | null;

export const participantCurationService = (
  ctx: ServiceContext,
  engine: Engine,
): ParticipantCurationService & { undoParticipantAct: UndoParticipantAct } => {
  const { store } = ctx;
  const c = actContext(ctx, engine);
  return {
    previewMerge: previewMerge(c),
    mergeParticipants: mergeParticipants(c),
    participantIdOfStudy: (studyId, code) => participantIdByCode(store, studyId, code),
    curationOfParticipant: async (participantId) =>
      (await curationActsOfParticipant(store, participantId)).map(toActView),
    undoParticipantAct: (a, reason) =>
      a.act === 'merge' ? undoMerge(c, a, reason) : a.act === 'status' ? undoStatus(c, a, reason) : null,
  };
};
