/**
 * Curation (issue 15): the researcher's acts that mend a study, each kept with who, when, why, and the
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
  readonly reason: string | null;
  /** The recording's state before and after, as stored (JSON values). */
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
