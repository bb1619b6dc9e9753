/**
 * Curation: the researcher's acts that mend a study, each kept with who, when, why, and the
 * recording's state before and after. The one list of acts; the audit kinds they write are in
 * shared/contract/audit.contract.ts, their labels in the window's labels.
 */
export const CURATION_ACTS = [
  'reassign',
  'exclude',
  'restore',
  'delete_unsent',
  'send_anyway',
  'undo',
  // acts on a participant or on the needs-you list (migration 0180)
  'merge',
  'dismiss',
  'status',
] as const;
export type CurationActKind = (typeof CURATION_ACTS)[number];

/** Longest reason the researcher can give (characters). */
export const MAX_CURATION_REASON = 500;

/** One act as the recording page, the study's list and the command line show it. */
export interface CurationActView {
  readonly id: number;
  readonly at: string;
  readonly who: string;
  readonly act: CurationActKind;
  readonly recordingId: number | null;
  /** The participant a participant act concerns (a merge: the one merged away); null for a recording's act. */
  readonly participantId: number | null;
  readonly reason: string | null;
  /** The recording's (or participant's) state before and after, as stored (JSON values). */
  readonly before: unknown;
  readonly after: unknown;
  /** The act this one undid (for `undo`). */
  readonly undoes: number | null;
  /** The act that undid this one. */
  readonly undoneBy: number | null;
  /** Whether it can be undone now (not an undo itself, not undone yet). */
  readonly undoable: boolean;
  /** Its entry in the audit log. */
  readonly auditId: number | null;
}

/** What an act answers: its id, and a warning the researcher must read (e.g. reassigned after upload). */
export interface CurationDone {
  readonly act: number;
  readonly warning: string | null;
}

/**
 * What merging one participant into another would do, read before the researcher confirms: how many
 * recordings move, how many were already analysed under the first participant's service account, the
 * session labels both use (a merge is refused while any remain), the same audio under both, and the
 * attributes on which the two disagree (the surviving participant's value is kept).
 */
export interface MergePreview {
  readonly from: { readonly id: number; readonly code: string };
  readonly into: { readonly id: number; readonly code: string };
  readonly recordings: number;
  /** Recordings of `from` already sent to the service (analysed under its account). */
  readonly sent: number;
  /** Session labels both participants have recordings in. */
  readonly sessionClashes: readonly string[];
  /** The same audio (content hash) under both: `from`'s recording and `into`'s. */
  readonly duplicates: readonly { readonly from: number; readonly into: number }[];
  /** Attributes set on both with different values: `into`'s value is kept. */
  readonly attributeConflicts: readonly {
    readonly key: string;
    readonly from: string;
    readonly into: string;
  }[];
  /** Why the merge cannot be done as it stands; null when it can. */
  readonly refusal: string | null;
}
