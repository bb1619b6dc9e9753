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
 * A participant's place in the study. `enrolled`: signed up, not yet recording; `active`:
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

// ---- groups of states: each rule about states is decided here, once, for every state ----

/** The states a classification puts in `group`, in the classification's order. */
const inGroup = <S extends string, G>(of: Readonly<Record<S, G>>, group: G): readonly S[] =>
  (Object.keys(of) as S[]).filter((s) => of[s] === group);

/**
 * How far a recording's file got towards the service. `never_sent`: nothing of it left the workstation
 * (it may be deleted outright); `in_flight`: in the queue or being sent; `sent`: the service has or may
 * have it (an uncertain upload may have cost a credit). Every upload state has its place, so a new state
 * does not compile until someone decides.
 */
export const UPLOAD_STATE_REACH: Readonly<Record<UploadState, 'never_sent' | 'in_flight' | 'sent'>> = {
  pending: 'never_sent',
  refused_locally: 'never_sent',
  duplicate: 'never_sent',
  queued: 'in_flight',
  uploading: 'in_flight',
  uploaded: 'sent',
  rejected: 'sent',
  upload_uncertain: 'sent',
  cancelled: 'never_sent',
};
export const UPLOAD_STATES_NEVER_SENT = inGroup(UPLOAD_STATE_REACH, 'never_sent');
export const UPLOAD_STATES_IN_FLIGHT = inGroup(UPLOAD_STATE_REACH, 'in_flight');
export const UPLOAD_STATES_SENT = inGroup(UPLOAD_STATE_REACH, 'sent');

/** Whether a recording in this upload state waits for the researcher (a needs-you item). */
export const UPLOAD_STATE_NEEDS_ATTENTION: Readonly<Record<UploadState, boolean>> = {
  pending: false,
  refused_locally: true,
  duplicate: true,
  queued: false,
  uploading: false,
  uploaded: false,
  rejected: true,
  upload_uncertain: true,
  cancelled: false,
};
export const UPLOAD_STATES_NEEDING_ATTENTION = inGroup(UPLOAD_STATE_NEEDS_ATTENTION, true);

/** Upload states of a file still waiting for its turn (not yet being sent). */
export const UPLOAD_STATES_WAITING = ['pending', 'queued'] as const satisfies readonly UploadState[];
/** Upload states of a file on its way: waiting for its turn or being sent. */
export const UPLOAD_STATES_IN_PROGRESS = [
  ...UPLOAD_STATES_WAITING,
  'uploading',
] as const satisfies readonly UploadState[];

/**
 * Where an analysis stands. `under_way`: waiting for its upload or being computed; `failed`: it went
 * wrong or no answer came (the researcher looks at it); `done`: nothing left to do or to look at
 * (completed, or never asked for). Every analysis state has its place.
 */
export const ANALYSIS_STATE_STANDING: Readonly<Record<AnalysisState, 'under_way' | 'failed' | 'done'>> = {
  awaiting_upload: 'under_way',
  processing: 'under_way',
  completed: 'done',
  error: 'failed',
  not_requested: 'done',
  timed_out: 'failed',
  unanswered: 'failed',
};
export const ANALYSIS_STATES_UNDER_WAY = inGroup(ANALYSIS_STATE_STANDING, 'under_way');
export const ANALYSIS_STATES_FAILED = inGroup(ANALYSIS_STATE_STANDING, 'failed');
export const ANALYSIS_STATES_DONE = inGroup(ANALYSIS_STATE_STANDING, 'done');

/** Analysis states that still have a next poll: being computed, or timed out and re-checked at a slower pace. */
export const ANALYSIS_STATES_POLLED = ['processing', 'timed_out'] as const satisfies readonly AnalysisState[];
