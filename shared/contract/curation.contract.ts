/**
 * Curation: the researcher mends a study from the recording page. Reassign a recording to
 * another participant or session label, exclude it from analysis with a reason and restore it, delete
 * one that was never sent, undo an act; and read a recording's or a study's acts (who, when, why, before
 * and after). Each act is also an entry in the audit log.
 */
import { z } from 'zod';
import { CURATION_ACTS, MAX_CURATION_REASON } from '../curation';
import { boundedInt, labelText, plainText, strict } from './bounds';
import { action, procedure } from '../rpc';
import { Id } from './views';

export const CurationActSchema = z.object({
  id: Id,
  at: z.string(),
  who: z.string(),
  act: z.enum(CURATION_ACTS),
  recordingId: Id.nullable(),
  participantId: Id.nullable(),
  reason: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  undoes: Id.nullable(),
  undoneBy: Id.nullable(),
  undoable: z.boolean(),
  auditId: Id.nullable(),
});

export const CurationDoneSchema = z.object({
  act: Id,
  /** What the researcher must read (e.g. the service analysed it under the first participant's account). */
  warning: z.string().nullable(),
});

/** A note in a recording's history that an analyst must see, and the curation act that wrote it. */
export const ProvenanceNoteSchema = z.object({ at: z.string(), note: z.string(), act: Id });

const Reason = plainText(MAX_CURATION_REASON);

const Side = z.object({ id: Id, code: z.string() });
export const MergePreviewSchema = z.object({
  from: Side,
  into: Side,
  recordings: z.int().nonnegative(),
  sent: z.int().nonnegative(),
  sessionClashes: z.array(z.string()),
  duplicates: z.array(z.object({ from: Id, into: Id })),
  attributeConflicts: z.array(z.object({ key: z.string(), from: z.string(), into: z.string() })),
  refusal: z.string().nullable(),
});

/** An act changes the recording's row and page, the participants' figures, timelines and the study's figures. */
const AFTER_ACT = [
  'curation',
  'recordings',
  'participants',
  'timeline',
  'batches',
  'studies.get',
  'audit',
] as const;

export const curationContract = {
  /** A recording's exclusion, provenance notes and acts (newest first). */
  'curation.recording': procedure(
    strict({ recordingId: Id }),
    z.object({
      excluded: z.object({ at: z.string(), reason: z.string().nullable() }).nullable(),
      provenance: z.array(ProvenanceNoteSchema),
      acts: z.array(CurationActSchema),
    }),
  ),
  /** A study's acts, newest first. */
  'curation.study': procedure(
    strict({ studyId: Id, limit: boundedInt(1, 1000).default(200) }),
    z.array(CurationActSchema),
  ),
  /** Files a recording under another participant and/or session label (`session: null` clears it). */
  'curation.reassignRecording': action(
    strict({
      recordingId: Id,
      participantId: Id.optional(),
      session: labelText().nullable().optional(),
      reason: Reason.optional(),
    }),
    CurationDoneSchema,
    AFTER_ACT,
  ),
  'curation.excludeRecording': action(
    strict({ recordingId: Id, reason: Reason.min(1) }),
    CurationDoneSchema,
    AFTER_ACT,
  ),
  'curation.restoreRecording': action(
    strict({ recordingId: Id, reason: Reason.optional() }),
    CurationDoneSchema,
    AFTER_ACT,
  ),
  /** Only a recording nothing of which was sent (pending, refused locally, held duplicate, cancelled). */
  'curation.deleteRecording': action(
    strict({ recordingId: Id, reason: Reason.optional() }),
    CurationDoneSchema,
    AFTER_ACT,
  ),
  /** A locally refused file whose refusal was a judgement (speech estimate, borderline), with a reason. */
  'curation.sendRecordingAnyway': action(
    strict({ recordingId: Id, reason: Reason.min(1) }),
    CurationDoneSchema,
    AFTER_ACT,
  ),
  'curation.undoAct': action(strict({ actId: Id, reason: Reason.optional() }), CurationDoneSchema, AFTER_ACT),
  /** Sets a needs-you item (a refused file, a held duplicate, a failed analysis) aside with a reason. */
  'curation.dismissItem': action(
    strict({ recordingId: Id, reason: Reason.min(1) }),
    CurationDoneSchema,
    AFTER_ACT,
  ),
  /** A study's dismissed needs-you items still in force (optionally of one batch), newest first. */
  'curation.dismissed': procedure(
    strict({ studyId: Id, batchId: Id.optional() }),
    z.array(
      z.object({
        recordingId: Id,
        path: z.string(),
        participantCode: z.string(),
        uploadState: z.string(),
        batchId: Id.nullable(),
        act: Id,
        at: z.string(),
        who: z.string(),
        reason: z.string().nullable(),
      }),
    ),
  ),
  /** A participant's acts (merges from or into it, status changes, their undos), newest first. */
  'curation.participant': procedure(strict({ participantId: Id }), z.array(CurationActSchema)),
  /** What merging one participant into another would do, and why it cannot be done if it cannot. */
  'curation.planOfMerge': procedure(strict({ fromId: Id, intoId: Id }), MergePreviewSchema),
  /** Merges a participant entered twice into the other; the first is kept, marked merged; undo restores both. */
  'curation.mergeParticipants': action(
    strict({ fromId: Id, intoId: Id, reason: Reason.min(1) }),
    CurationDoneSchema,
    AFTER_ACT,
  ),
} as const;
