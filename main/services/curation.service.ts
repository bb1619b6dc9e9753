/**
 * Curation: the researcher mends a study. Reassign a recording to another participant or
 * session label; exclude it from analysis with a reason and restore it; delete a recording that was
 * never sent; undo any of these. Every act is written in one transaction with its audit entry:
 * a `curation_acts` row (who, when, reason, the recording's state before and after) and an entry in
 * the hash-chained audit log naming the act, the recording, the participants by id and a digest of
 * the act. Refusals are values in the researcher's words.
 */
import { type CurationActView, type CurationDone } from '../../shared/curation';
import { LIMITS } from '../../shared/api/vocabulary';
import { err, ok, type Result } from '../../shared/result';
import { UPLOAD_STATES_SENT } from '../../shared/states';
import {
  curatedRecording,
  curationActById,
  curationActsOfRecording,
  curationActsOfStudy,
  deleteNeverSent,
  moveRecording,
  moveUploadState,
  nextCurationActId,
  participantIdByCode,
  participantOfStudy,
  recordingExists,
  recordingSnapshot,
  reinsertRecording,
  setExclusion,
  type CuratedRecording,
  type ProvenanceNote,
  type RecordingSnapshot,
} from '../db/repos/curation.repo';
import { reopenBatchesOf } from '../db/repos/batches.repo';
import type { Engine } from './engine.service';
import { curationRecorder, toActView } from '../curation/recorder';
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
  ): Result<CurationDone, ServiceProblem>;
  /** Excludes a recording from analysis (it stays in exports, marked); a reason is required. */
  excludeRecording(recordingId: number, reason: string): Result<CurationDone, ServiceProblem>;
  /** Brings an excluded recording back into analysis. */
  restoreRecording(recordingId: number, reason?: string): Result<CurationDone, ServiceProblem>;
  /** Deletes a recording nothing of which was sent (pending, refused locally, held duplicate, cancelled). */
  deleteNeverSentRecording(recordingId: number, reason?: string): Result<CurationDone, ServiceProblem>;
  /**
   * Sends a locally refused file anyway, where the refusal was a judgement (the local speech estimate,
   * a borderline rate); never where the service's hard limits (size, duration, format, a failed
   * conversion) make sending it pointless. A reason is required.
   */
  sendRefusedAnyway(recordingId: number, reason: string): Result<CurationDone, ServiceProblem>;
  /** Undoes an act if the recording is still as that act left it; the undo is an act of its own. */
  undoCuration(actId: number, reason?: string): Result<CurationDone, ServiceProblem>;
  /** The participant with this code in the recording's study (the command line names participants by code). */
  participantOfRecordingStudy(recordingId: number, code: string): number | null;
  /** A recording's exclusion, provenance notes and acts (newest first); null when there is no such recording. */
  curationStateOfRecording(recordingId: number): {
    excluded: { at: string; reason: string | null } | null;
    provenance: readonly ProvenanceNote[];
    acts: CurationActView[];
  } | null;
  /** A recording's acts, newest first. */
  curationOfRecording(recordingId: number): CurationActView[];
  /** A study's acts, newest first. */
  curationOfStudy(studyId: number, limit?: number): CurationActView[];
}

/** The part of a recording each act changes, as its before and after. */
interface Filing {
  readonly participantId: number;
  readonly participant: string;
  readonly session: string | null;
  readonly provenance: readonly ProvenanceNote[];
}
interface Exclusion {
  readonly excluded: boolean;
  readonly at: string | null;
  readonly reason: string | null;
}

const filingOf = (r: CuratedRecording): Filing => ({
  participantId: r.participantId,
  participant: r.participantCode,
  session: r.session,
  provenance: r.provenance,
});
const exclusionOf = (r: CuratedRecording): Exclusion => ({
  excluded: r.excludedAt !== null,
  at: r.excludedAt,
  reason: r.excludedReason,
});

/** Upload states in which something of the recording may have reached the service. */
const SENT_STATES = new Set<string>(UPLOAD_STATES_SENT);

const NO_RECORDING = problem(
  'There is no such recording.',
  'Check the recording number (voicescope status lists them).',
);

export const curationService = (ctx: ServiceContext, engine: Engine): CurationService => {
  const { db, iso } = ctx;
  const { cleanReason, record } = curationRecorder(ctx);
  const { undoParticipantAct } = participantCurationService(ctx, engine);
  const { undoDismissal } = needsYouCurationService(ctx);

  const wake = () => engine.service.wake();

  const reassign: CurationService['reassignRecording'] = (recordingId, to, reasonIn) => {
    const reason = cleanReason(reasonIn);
    if (!reason.ok) return reason;
    const r = curatedRecording(db, recordingId);
    if (!r) return err(NO_RECORDING);
    if (r.uploadState === 'uploading')
      return err(
        problem(
          'This recording is being uploaded right now.',
          'Wait until its upload has finished (or is marked uncertain), then reassign it.',
        ),
      );
    const target = to.participantId === undefined ? null : participantOfStudy(db, to.participantId);
    if (to.participantId !== undefined && (!target || target.studyId !== r.studyId))
      return err(
        problem('That participant is not in this study.', 'Choose a participant of the same study.'),
      );
    const session =
      to.session === undefined ? r.session : to.session === null ? null : to.session.trim() || null;
    const participantId = target?.id ?? r.participantId;
    if (participantId === r.participantId && session === r.session)
      return err(problem('The recording is already filed there.', 'Choose another participant or session.'));
    const moved = participantId !== r.participantId;
    const sent = SENT_STATES.has(r.uploadState) || r.serviceRecordingId !== null;
    const at = iso();
    const warning =
      moved && sent
        ? `The service analysed this recording under participant ${r.participantCode}'s account; its results stay as the service gave them. The recording's provenance now says so.`
        : null;
    const before = filingOf(r);
    // The act's id is the next one: the note names it so the export can join the two.
    const provenance = (act: number): ProvenanceNote[] =>
      warning
        ? [
            ...r.provenance,
            {
              at,
              act,
              note: `Reassigned from participant ${r.participantCode} to ${target!.code} after upload: the service analysed it under ${r.participantCode}'s account.`,
            },
          ]
        : [...r.provenance];
    let after: Filing | null = null;
    const act = db.transaction(() => {
      const next = nextCurationActId(db);
      after = {
        participantId,
        participant: target?.code ?? r.participantCode,
        session,
        provenance: provenance(next),
      };
      const a = after;
      return record(
        {
          studyId: r.studyId,
          act: 'reassign',
          recordingId,
          reason: reason.value,
          before,
          after: a,
          detail: {
            participant_before: r.participantId,
            participant_after: participantId,
            session_changed: session !== r.session,
            after_upload: sent,
          },
        },
        () => moveRecording(db, recordingId, participantId, session, a.provenance),
      );
    })();
    wake();
    return ok({ act, warning });
  };

  const exclude: CurationService['excludeRecording'] = (recordingId, reasonIn) => {
    const reason = cleanReason(reasonIn);
    if (!reason.ok) return reason;
    if (reason.value === null)
      return err(
        problem(
          'Say why this recording is excluded.',
          'Give a reason such as "test recording" or "wrong task"; it goes into the exports.',
        ),
      );
    const r = curatedRecording(db, recordingId);
    if (!r) return err(NO_RECORDING);
    if (r.excludedAt !== null)
      return err(problem('This recording is already excluded.', 'Restore it first to exclude it anew.'));
    const at = iso();
    const after: Exclusion = { excluded: true, at, reason: reason.value };
    const act = record(
      {
        studyId: r.studyId,
        act: 'exclude',
        recordingId,
        reason: reason.value,
        before: exclusionOf(r),
        after,
      },
      () => setExclusion(db, recordingId, at, reason.value),
    );
    return ok({ act, warning: null });
  };

  const restore: CurationService['restoreRecording'] = (recordingId, reasonIn) => {
    const reason = cleanReason(reasonIn);
    if (!reason.ok) return reason;
    const r = curatedRecording(db, recordingId);
    if (!r) return err(NO_RECORDING);
    if (r.excludedAt === null) return err(problem('This recording is not excluded.', 'Nothing to restore.'));
    const after: Exclusion = { excluded: false, at: null, reason: null };
    const act = record(
      {
        studyId: r.studyId,
        act: 'restore',
        recordingId,
        reason: reason.value,
        before: exclusionOf(r),
        after,
      },
      () => setExclusion(db, recordingId, null, null),
    );
    return ok({ act, warning: null });
  };

  const deleteNeverSentRecording: CurationService['deleteNeverSentRecording'] = (recordingId, reasonIn) => {
    const reason = cleanReason(reasonIn);
    if (!reason.ok) return reason;
    const r = curatedRecording(db, recordingId);
    const snapshot = recordingSnapshot(db, recordingId);
    if (!r || !snapshot) return err(NO_RECORDING);
    let deleted = false;
    const act = record(
      {
        studyId: r.studyId,
        act: 'delete_unsent',
        recordingId,
        reason: reason.value,
        before: snapshot,
        after: null,
      },
      () => {
        deleted = deleteNeverSent(db, recordingId);
        // Refused: roll back the transaction (nothing written, not even the act).
        if (!deleted) throw new NotNeverSent();
      },
    );
    return ok({ act, warning: null });
  };

  /** Why a locally refused recording may not be sent anyway; null when its refusal was a judgement. */
  const hardLimit = (r: CuratedRecording): string | null => {
    if (r.uploadError !== null) return 'Its conversion failed: there is no copy the service could take.';
    const v = r.verdict;
    if (!v) return 'No local verdict was stored for it.';
    for (const f of v.findings.filter((x) => x.severity === 'refuse')) {
      const judged =
        f.code === 'speech_too_short' &&
        r.durationSeconds !== null &&
        r.durationSeconds >= LIMITS.minSpeechSeconds;
      if (!judged) return f.message;
    }
    return null;
  };

  const sendAnyway: CurationService['sendRefusedAnyway'] = (recordingId, reasonIn) => {
    const reason = cleanReason(reasonIn);
    if (!reason.ok) return reason;
    if (reason.value === null)
      return err(
        problem('Say why this file is sent anyway.', 'Give a reason such as "speech estimate too strict".'),
      );
    const r = curatedRecording(db, recordingId);
    if (!r) return err(NO_RECORDING);
    if (r.uploadState !== 'refused_locally')
      return err(problem('This recording was not refused locally.', 'Nothing to send anyway.'));
    const limit = hardLimit(r);
    if (limit !== null)
      return err(
        problem(
          `It cannot be sent anyway: the service's own limits would refuse it. ${limit}`,
          'Fix the file (or record again) and import it anew.',
        ),
      );
    const to = r.accountId ? 'queued' : 'pending';
    const act = record(
      {
        studyId: r.studyId,
        act: 'send_anyway',
        recordingId,
        reason: reason.value,
        before: { uploadState: 'refused_locally' },
        after: { uploadState: to },
      },
      () => {
        moveUploadState(db, recordingId, 'refused_locally', to);
        reopenBatchesOf(db, [recordingId], iso());
      },
    );
    wake();
    return ok({ act, warning: null });
  };

  const undo: CurationService['undoCuration'] = (actId, reasonIn) => {
    const reason = cleanReason(reasonIn);
    if (!reason.ok) return reason;
    const a = curationActById(db, actId);
    if (!a)
      return err(problem('There is no such curation act.', "Check its number in the recording's history."));
    if (a.act === 'undo')
      return err(
        problem('An undo cannot be undone.', 'Do the act again instead (it is recorded as a new act).'),
      );
    if (a.undoneBy !== null)
      return err(problem(`This act was already undone (act ${a.undoneBy}).`, 'Nothing to undo.'));
    const elsewhere = undoParticipantAct(a, reason.value) ?? undoDismissal(a, reason.value);
    if (elsewhere) return elsewhere;
    const recordingId = a.recordingId!;
    const changed = problem(
      'The recording has changed since this act, so undoing it would overwrite a later change.',
      'Undo the later acts first (newest first), or make the change you want as a new act.',
    );
    const base = {
      studyId: a.studyId,
      act: 'undo' as const,
      recordingId,
      reason: reason.value,
      undoes: a.id,
      undone: a.act,
    };
    if (a.act === 'delete_unsent') {
      if (recordingExists(db, recordingId)) return err(changed);
      const snapshot = a.before as RecordingSnapshot;
      const participant = participantOfStudy(db, snapshot.recording['participant_id'] as number);
      if (!participant)
        return err(
          problem(
            'The participant this recording belonged to no longer exists.',
            'Import the file again under the right participant.',
          ),
        );
      const act = record({ ...base, before: null, after: snapshot }, () => reinsertRecording(db, snapshot));
      wake();
      return ok({ act, warning: null });
    }
    const r = curatedRecording(db, recordingId);
    if (!r) return err(changed);
    if (a.act === 'send_anyway') {
      const now = r.uploadState;
      if (now !== 'queued' && now !== 'pending')
        return err(
          problem(
            'The file has been sent (or is being sent) since; that cannot be undone.',
            'Exclude it from analysis instead if its results should not count.',
          ),
        );
      const act = record(
        { ...base, before: { uploadState: now }, after: { uploadState: 'refused_locally' } },
        () => {
          if (!moveUploadState(db, recordingId, now, 'refused_locally'))
            throw new Error('upload state moved');
        },
      );
      return ok({ act, warning: null });
    }
    if (a.act === 'reassign') {
      const was = a.after as Filing;
      const back = a.before as Filing;
      if (r.participantId !== was.participantId || r.session !== was.session) return err(changed);
      if (!participantOfStudy(db, back.participantId))
        return err(
          problem('The participant it was filed under no longer exists.', 'Reassign it as a new act.'),
        );
      const act = record(
        {
          ...base,
          before: filingOf(r),
          after: back,
          detail: { participant_before: r.participantId, participant_after: back.participantId },
        },
        () => moveRecording(db, recordingId, back.participantId, back.session, back.provenance),
      );
      wake();
      return ok({ act, warning: null });
    }
    const now = exclusionOf(r);
    const was = a.after as Exclusion;
    if (now.excluded !== was.excluded) return err(changed);
    const back = a.before as Exclusion;
    const act = record({ ...base, before: now, after: back }, () =>
      setExclusion(db, recordingId, back.excluded ? back.at : null, back.excluded ? back.reason : null),
    );
    return ok({ act, warning: null });
  };

  return {
    reassignRecording: reassign,
    excludeRecording: exclude,
    restoreRecording: restore,
    deleteNeverSentRecording(recordingId, reason) {
      try {
        return deleteNeverSentRecording(recordingId, reason);
      } catch (e) {
        if (!(e instanceof NotNeverSent)) throw e;
        return err(
          problem(
            'Only a recording that was never sent can be deleted: this one was queued or sent to the service.',
            'Exclude it from analysis instead (it stays in the exports, marked).',
          ),
        );
      }
    },
    undoCuration: undo,
    sendRefusedAnyway: sendAnyway,
    participantOfRecordingStudy(recordingId, code) {
      const r = curatedRecording(db, recordingId);
      return r ? participantIdByCode(db, r.studyId, code) : null;
    },
    curationStateOfRecording(recordingId) {
      const r = curatedRecording(db, recordingId);
      if (!r) return null;
      return {
        excluded: r.excludedAt === null ? null : { at: r.excludedAt, reason: r.excludedReason },
        provenance: r.provenance,
        acts: curationActsOfRecording(db, recordingId).map(toActView),
      };
    },
    curationOfRecording: (recordingId) => curationActsOfRecording(db, recordingId).map(toActView),
    curationOfStudy: (studyId, limit = 200) => curationActsOfStudy(db, studyId, limit).map(toActView),
  };
};

class NotNeverSent extends Error {}
