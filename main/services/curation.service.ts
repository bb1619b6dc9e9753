/**
 * Curation: the researcher mends a study. Reassign a recording to another participant or
 * session label; exclude it from analysis with a reason and restore it; delete a recording that was
 * never sent; undo any of these. Every act is written in one transaction with its audit entry:
 * a `curation_acts` row (who, when, reason, the recording's state before and after) and an entry in
 * the hash-chained audit log naming the act, the recording, the participants by id and a digest of
 * the act. Refusals are values in the researcher's words. Each act, and its undo, is a module of
 * main/services/curation/; this service composes them.
 */
import { type CurationActView, type CurationDone } from '../../shared/curation';
import { err, type Result } from '../../shared/result';
import {
  curatedRecording,
  curationActById,
  curationActsOfRecording,
  curationActsOfStudy,
  participantIdByCode,
  type CurationActRow,
  type ProvenanceNote,
} from '../db/repos/curation.repo';
import type { Engine } from './engine.service';
import { toActView } from '../curation/recorder';
import {
  actContext,
  RECORDING_CHANGED,
  type ActContext,
  type ActResult,
  type UndoBase,
} from './curation/acts';
import { deleteNeverSentRecording, undoDeletion } from './curation/recording-deletion';
import { excludeRecording, restoreRecording, undoExclusion } from './curation/recording-exclusion';
import { reassignRecording, undoReassign } from './curation/recording-filing';
import { sendRefusedAnyway, undoSendAnyway } from './curation/send-anyway';
import { needsYouCurationService } from './needs-you-curation.service';
import { participantCurationService } from './participant-curation.service';
import { problem, type ServiceContext, type ServiceProblem } from './service-context';

export interface CurationService {
  /**
   * Files a recording under another participant of the same study and/or another session label
   * (`session: null` clears it). After upload the warning says that the service analysed it under the
   * first participant's account, and the recording's provenance says so too.
   */
  reassignRecording(
    recordingId: number,
    to: { participantId?: number; session?: string | null },
    reason?: string,
  ): Promise<Result<CurationDone, ServiceProblem>>;
  /** Excludes a recording from analysis (it stays in exports, marked); a reason is required. */
  excludeRecording(recordingId: number, reason: string): Promise<Result<CurationDone, ServiceProblem>>;
  /** Brings an excluded recording back into analysis. */
  restoreRecording(recordingId: number, reason?: string): Promise<Result<CurationDone, ServiceProblem>>;
  /** Deletes a recording nothing of which was sent (pending, refused locally, held duplicate, cancelled). */
  deleteNeverSentRecording(
    recordingId: number,
    reason?: string,
  ): Promise<Result<CurationDone, ServiceProblem>>;
  /**
   * Sends a locally refused file anyway, where the refusal was a judgement (the local speech estimate,
   * a borderline rate); never where the service's hard limits (size, duration, format, a failed
   * conversion) make sending it pointless. A reason is required.
   */
  sendRefusedAnyway(recordingId: number, reason: string): Promise<Result<CurationDone, ServiceProblem>>;
  /** Undoes an act if the recording is still as that act left it; the undo is an act of its own. */
  undoCuration(actId: number, reason?: string): Promise<Result<CurationDone, ServiceProblem>>;
  /** The participant with this code in the recording's study (the command line names participants by code). */
  participantOfRecordingStudy(recordingId: number, code: string): Promise<number | null>;
  /** A recording's exclusion, provenance notes and acts (newest first); null when there is no such recording. */
  curationStateOfRecording(recordingId: number): Promise<{
    excluded: { at: string; reason: string | null } | null;
    provenance: readonly ProvenanceNote[];
    acts: CurationActView[];
  } | null>;
  /** A recording's acts, newest first. */
  curationOfRecording(recordingId: number): Promise<CurationActView[]>;
  /** A study's acts, newest first. */
  curationOfStudy(studyId: number, limit?: number): Promise<CurationActView[]>;
}

/**
 * Undoes a recording's act, if the recording is still as that act left it: each act's own undo is
 * beside the act (main/services/curation/).
 */
const undoRecordingAct = async (c: ActContext, a: CurationActRow, reason: string | null): ActResult => {
  const recordingId = a.recordingId!;
  const base: UndoBase = {
    studyId: a.studyId,
    act: 'undo',
    recordingId,
    reason,
    undoes: a.id,
    undone: a.act,
  };
  if (a.act === 'delete_unsent') return undoDeletion(c, a, base);
  const r = await curatedRecording(c.store, recordingId);
  if (!r) return err(RECORDING_CHANGED);
  if (a.act === 'send_anyway') return undoSendAnyway(c, r, base);
  if (a.act === 'reassign') return undoReassign(c, a, r, base);
  return undoExclusion(c, a, r, base);
};

export const curationService = (ctx: ServiceContext, engine: Engine): CurationService => {
  const { store } = ctx;
  const c = actContext(ctx, engine);
  const { undoParticipantAct } = participantCurationService(ctx, engine);
  const { undoDismissal } = needsYouCurationService(ctx);

  const undo: CurationService['undoCuration'] = async (actId, reasonIn) => {
    const reason = c.cleanReason(reasonIn);
    if (!reason.ok) return reason;
    const a = await curationActById(store, actId);
    if (!a)
      return err(problem('There is no such curation act.', "Check its number in the recording's history."));
    if (a.act === 'undo')
      return err(
        problem('An undo cannot be undone.', 'Do the act again instead (it is recorded as a new act).'),
      );
    if (a.undoneBy !== null)
      return err(problem(`This act was already undone (act ${a.undoneBy}).`, 'Nothing to undo.'));
    return (
      undoParticipantAct(a, reason.value) ??
      undoDismissal(a, reason.value) ??
      undoRecordingAct(c, a, reason.value)
    );
  };

  return {
    reassignRecording: reassignRecording(c),
    excludeRecording: excludeRecording(c),
    restoreRecording: restoreRecording(c),
    deleteNeverSentRecording: deleteNeverSentRecording(c),
    undoCuration: undo,
    sendRefusedAnyway: sendRefusedAnyway(c),
    async participantOfRecordingStudy(recordingId, code) {
      const r = await curatedRecording(store, recordingId);
      return r ? participantIdByCode(store, r.studyId, code) : null;
    },
    async curationStateOfRecording(recordingId) {
      const r = await curatedRecording(store, recordingId);
      if (!r) return null;
      return {
        excluded: r.excludedAt === null ? null : { at: r.excludedAt, reason: r.excludedReason },
        provenance: r.provenance,
        acts: (await curationActsOfRecording(store, recordingId)).map(toActView),
      };
    },
    curationOfRecording: async (recordingId) =>
      (await curationActsOfRecording(store, recordingId)).map(toActView),
    curationOfStudy: async (studyId, limit = 200) =>
      (await curationActsOfStudy(store, studyId, limit)).map(toActView),
  };
};
