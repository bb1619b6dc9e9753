/**
 * What the study engine shows the researcher: studies, profiles, import plans, batches, recordings and
 * the progress events it pushes. Plain serialisable data, shared by the main-process services, the
 * command line and (through the IPC contract) the renderer.
 */
import type { ApiError } from './api/api-error';
import type { Usage } from './api/domain';
import type { AnalysisType, ApiVersion, AudioFormat } from './api/vocabulary';
import type {
  AnalysisState,
  BatchState,
  FindingSeverity,
  PlannedAction,
  RecordedAtSource,
  UploadState,
  VerdictStatus,
} from './states';

export type { AnalysisState, BatchState, PlannedAction, RecordedAtSource, UploadState };

export interface ProfileSummary {
  readonly id: number;
  readonly name: string;
  readonly baseUrl: string;
  readonly apiVersion: ApiVersion;
  readonly isSandbox: boolean;
  /** Where the key is kept (e.g. `key-file:1`, `env:VOICESCOPE_KEY`), never the key. */
  readonly keyRef: string | null;
}

export interface StudySummary {
  readonly id: number;
  readonly name: string;
  readonly profileId: number | null;
  readonly participants: number;
  readonly recordings: number;
  readonly createdAt: string;
}

export interface FindingView {
  readonly code: string;
  readonly severity: FindingSeverity;
  readonly message: string;
  readonly action: string;
  readonly fixedByConversion: boolean;
}

export interface VerdictView {
  readonly status: VerdictStatus;
  readonly findings: readonly FindingView[];
  /** The speech figure the verdict used, with the estimator's name and the channel it measured. */
  readonly speech?: SpeechFigure | undefined;
  /** Stored with the recording when a converted copy was made at import: what it is and how it was made. */
  readonly conversion?: ConversionView | undefined;
}

/**
 * A converted copy (mono 16 kHz 16-bit PCM WAV) made from the original at import, as its recording keeps
 * it: the copy's hash, the channel sent, the rate it was resampled from and what decoded the original.
 */
export interface ConversionView {
  /** SHA-256 of the converted copy's bytes (hexadecimal). */
  readonly sha256: string;
  /** The channel sent (1-based), or 'mix' when the channels were averaged. */
  readonly channel: number | 'mix';
  /** The original's sample rate when it was resampled to 16 kHz; null when it was already 16 kHz. */
  readonly resampledFromHz: number | null;
  /** What decoded the original; absent in copies made before every format went through a decoder (WAV read directly). */
  readonly decodedBy?:
    { readonly decoder: string; readonly container: string; readonly codec: string } | undefined;
}

export interface SpeechFigure {
  readonly seconds: number;
  readonly method: string;
  /** The channel sent (1-based), or 'mix' when the channels are averaged. */
  readonly channelSent: number | 'mix';
}

/** Where the same audio was seen: under which participant, in which study, as which recording. */
export interface SeenElsewhere {
  /** The stored recording; null for another file of this import. */
  readonly recordingId: number | null;
  readonly study: string;
  readonly sameStudy: boolean;
  readonly participantCode: string;
  readonly session: string | null;
  readonly path: string;
}

export interface PlannedFile {
  readonly path: string;
  readonly fileName: string;
  readonly sizeBytes: number;
  readonly sha256: string | null;
  readonly participantCode: string | null;
  readonly session: string | null;
  readonly recordedAt: string | null;
  readonly recordedAtSource: RecordedAtSource | null;
  readonly format: AudioFormat | null;
  readonly channels: number | null;
  readonly sampleRateHz: number | null;
  readonly durationSeconds: number | null;
  readonly speechSeconds: number | null;
  readonly verdict: VerdictView;
  /** The earlier copy: a recording already in the study, or an earlier file of this plan. */
  readonly duplicateOf: { readonly recordingId: number | null; readonly path: string } | null;
  /** A duplicate whose earlier copy waits, unsent, in this batch that was never started: start it instead. */
  readonly unstartedBatchId?: number | undefined;
  /**
   * A refused file already in the study, refused locally before (same audio, same participant): it is
   * not added again; this is that recording.
   */
  readonly alreadyRefused?: { readonly recordingId: number; readonly batchId: number | null } | undefined;
  /**
   * The same audio under another participant of this study (stored, or another file of this plan) or in
   * another study of the workspace; absent or empty when it was seen nowhere else. Such a
   * file is held as a duplicate: the researcher decides.
   */
  readonly seenElsewhere?: readonly SeenElsewhere[] | undefined;
  readonly action: PlannedAction;
  /** Why the file is unassigned, when it is. */
  readonly assignmentProblem: string | null;
}

export interface ImportRequest {
  readonly studyId: number;
  /** Files and folders (folders are searched recursively for audio files). */
  readonly paths: readonly string[];
  /** A manifest CSV (file, participant, recorded_at, session); when given, `paths` may be empty. */
  readonly manifestPath?: string | undefined;
  /** e.g. `{participant}_{session}_{date:YYYYMMDD}.wav`; used for files the manifest does not name. */
  readonly filenamePattern?: string | undefined;
  /** IANA zone for local times (manifest, file names, embedded dates). */
  readonly timeZone: string;
  readonly analyses: readonly AnalysisType[];
  readonly isolateOldestSpeaker: boolean;
  readonly convert: boolean;
  /** Multichannel files: the channel sent ('auto': the one with most speech; a 1-based number; or 'mix'). */
  readonly channel?: 'auto' | 'mix' | number | undefined;
  /** The channel chosen for single files (by path), over `channel`. */
  readonly channelByFile?:
    readonly { readonly path: string; readonly channel: 'auto' | 'mix' | number }[] | undefined;
}

export interface ImportPlan {
  readonly request: ImportRequest;
  readonly files: readonly PlannedFile[];
  readonly manifestErrors: readonly { readonly line: number; readonly message: string }[];
  readonly notices: readonly string[];
  /** Participant codes that do not exist yet: each needs a service account (one request each) once confirmed. */
  readonly newParticipants: readonly string[];
  /** Participants that exist but have no account yet. */
  readonly participantsWithoutAccount: readonly string[];
  readonly counts: Readonly<Record<PlannedAction, number>>;
}

export interface CreditCheckView {
  readonly uploadsPlanned: number;
  readonly uploadsRemaining: number;
  readonly shortBy: number;
  readonly emptiedBuckets: readonly string[];
  readonly emptiedHold: readonly number[];
  readonly message: string;
}

export interface BatchProgress {
  readonly batchId: number;
  readonly studyId: number;
  readonly label: string;
  readonly state: BatchState;
  readonly createdAt: string;
  readonly analyses: readonly AnalysisType[];
  readonly uploads: Readonly<Partial<Record<UploadState, number>>>;
  /** Of `uploads.refused_locally`, the borderline files not chosen for sending: held for the researcher, not refused. */
  readonly heldBorderline: number;
  readonly analysesByState: Readonly<Partial<Record<AnalysisState, number>>>;
  readonly total: number;
  readonly pauseReason: string | null;
  /**
   * How far the service's clock is from this workstation's, in seconds (its `uploaded_at` minus the
   * moment the upload was accepted here, averaged over the batch's uploads; positive: the service is
   * ahead). Null before anything was uploaded. Only shown: the poll schedule runs on this workstation's clock.
   */
  readonly serviceClockOffsetSeconds: number | null;
}

/** A clock difference larger than this is shown to the researcher. */
export const CLOCK_DIFFERENCE_SHOWN_SECONDS = 60;

export interface UncertainUpload {
  readonly recordingId: number;
  readonly path: string;
  readonly participantCode: string;
  readonly reason: string;
  readonly error: ApiError | null;
  readonly usageBefore: Usage | null;
  readonly usageAfter: Usage | null;
}

export interface QueueSettings {
  /** Uploads in flight at once. */
  readonly uploadConcurrency: number;
  /** Upload requests per minute at most. */
  readonly uploadsPerMinute: number;
}

export const DEFAULT_QUEUE: QueueSettings = { uploadConcurrency: 2, uploadsPerMinute: 30 };

/** Pushed by the engine, coalesced so that thousands of files cost a few events a second. */
export type EngineEvent =
  | { readonly type: 'batch-progress'; readonly batches: readonly BatchProgress[] }
  | {
      readonly type: 'recordings-changed';
      readonly studyId: number;
      readonly recordingIds: readonly number[];
      readonly truncated: boolean;
    }
  | {
      readonly type: 'queue-paused';
      readonly profileId: number;
      readonly reason: string;
      readonly untilMs: number | null;
    }
  | { readonly type: 'queue-resumed'; readonly profileId: number }
  | { readonly type: 'usage'; readonly profileId: number; readonly usage: Usage }
  | { readonly type: 'import-progress'; readonly done: number; readonly total: number }
  | DatabaseConnectionEvent;

/**
 * A team study's database connection as the workstation sees it: lost (said plainly, with what the
 * workstation does about it), then restored when it has reconnected by itself. SQLite studies never
 * send it.
 */
export interface DatabaseConnectionEvent {
  readonly type: 'database-connection';
  readonly state: 'lost' | 'restored';
  /** When the workstation noticed (ISO 8601). */
  readonly at: string;
  /** In a researcher's words: what happened and what the workstation is doing (no address, no password). */
  readonly message: string;
}
