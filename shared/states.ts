/**
 * The study engine's closed vocabularies: the states of an upload, an analysis and a batch, where a
 * recording's time came from, and what importing a file would do. Written once here, as lists; the
 * TypeScript unions (shared/study.ts), the zod enums of the IPC contract (shared/contract/views.ts)
 * and the export's codebook (main/export/schema.ts) all derive from these. No zod here, so the engine's
 * plain types stay plain.
 */

export const UPLOAD_STATES = [
  'pending',
  'refused_locally',
  'duplicate',
  'queued',
  'uploading',
  'uploaded',
  'rejected',
  'upload_uncertain',
  'cancelled',
] as const;
export type UploadState = (typeof UPLOAD_STATES)[number];

export const ANALYSIS_STATES = [
  'awaiting_upload',
  'processing',
  'completed',
  'error',
  'not_requested',
  /** no answer within the timeout: re-checked at a slower pace (it still has a next poll) */
  'timed_out',
  /** terminal: the timeout and the slower re-checks passed without an answer; the researcher can ask for one more check */
  'unanswered',
] as const;
export type AnalysisState = (typeof ANALYSIS_STATES)[number];

export const BATCH_STATES = ['open', 'running', 'paused', 'cancelled', 'finished'] as const;
export type BatchState = (typeof BATCH_STATES)[number];

export const RECORDED_AT_SOURCES = ['manifest', 'filename', 'embedded', 'file_mtime', 'researcher'] as const;
export type RecordedAtSource = (typeof RECORDED_AT_SOURCES)[number];

/** What importing a file would do, decided before anything is written or sent. */
export const PLANNED_ACTIONS = [
  /** valid as it is */
  'upload',
  /** a converted copy will be uploaded; the original stays untouched */
  'convert_and_upload',
  /** local validation refuses it: never sent */
  'refused',
  /** near the 30 s speech minimum, where the local estimate cannot decide: sent only if the researcher chooses to */
  'borderline',
  /** same audio already imported for this participant: not sent unless the researcher insists */
  'duplicate',
  /** no participant (manifest row error or file name not matching the pattern): not imported */
  'unassigned',
] as const;
export type PlannedAction = (typeof PLANNED_ACTIONS)[number];

/** A local check's verdict on a file, and how serious each of its findings is. */
export const VERDICT_STATUSES = [
  'accepted',
  'accepted_with_warnings',
  'needs_conversion',
  'will_convert',
  'borderline',
  'refused',
] as const;
export type VerdictStatus = (typeof VERDICT_STATUSES)[number];
export const FINDING_SEVERITIES = ['refuse', 'warn'] as const;
export type FindingSeverity = (typeof FINDING_SEVERITIES)[number];

/**
 * A participant's place in the study (issue 15). `enrolled`: signed up, not yet recording; `active`:
 * expected to record (the only status the overdue flags count); `completed`: finished the schedule;
 * `withdrawn`: left, with a reason. Each change has a date (the participant's status history).
 */
export const PARTICIPANT_STATUSES = ['enrolled', 'active', 'completed', 'withdrawn'] as const;
export type ParticipantStatus = (typeof PARTICIPANT_STATUSES)[number];

/**
 * Where a recording's visit came from: the researcher's override, the session label (matching a visit's
 * name), the recording date falling in a visit's window (days from the participant's baseline), or none.
 */
export const VISIT_SOURCES = ['researcher', 'session', 'window', 'none'] as const;
export type VisitSource = (typeof VISIT_SOURCES)[number];
