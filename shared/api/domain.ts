/**
 * Version-neutral domain types. Both wire versions map into these (see to-domain.ts), so the rest of
 * the application never branches on the API version. Unavailable values are `null` or absent keys,
 * never 0.
 */
import type { DataQualityFlag } from './data-quality';
import type { AnalysisStatus, AnalysisType, ApiVersion } from './vocabulary';

export type MeasureValue = number | string;

// The data-quality members (`flags`, `raw`, `receivedStatus`, `unlisted`) are always set by the readers
// (read/answers.ts); they are optional only so that values made by hand (tests, older views) stay valid.

export interface AnalysisOutcome {
  readonly type: AnalysisType;
  /**
   * The status as the workstation acts on it. A status outside the specification's four (or absent) is
   * read as `processing` (the analysis is not known to be final), flagged, and kept in `receivedStatus`.
   */
  readonly status: AnalysisStatus;
  /** Measure key (see measures.ts) to value, as received (a rating differing only in case is normalised);
   * a key is absent when the service did not provide it. Values may be flagged: see `flags`. */
  readonly values: Readonly<Record<string, MeasureValue>>;
  /** The `status` member exactly as received (JSON text when not a string); null when absent. */
  readonly receivedStatus?: string | null;
  /** What is odd in this analysis object: out-of-range values, unknown members, values while processing... */
  readonly flags?: readonly DataQualityFlag[];
  /** The analysis object exactly as received, as JSON text, so that unknown members are kept. */
  readonly raw?: string;
}

/** An analysis type the specification does not describe for this version, kept as received. */
export interface UnlistedAnalysis {
  readonly name: string;
  /** The object as received, as JSON text. */
  readonly raw: string;
}

/** A member of the wrong kind (text where a number is expected) is null here; its flag keeps what came. */
export interface AudioFacts {
  readonly format: string | null;
  readonly sizeBytes: number | null;
  readonly sampleRateHz: number | null;
  readonly bitRateBps: number | null;
  readonly durationSeconds: number | null;
  readonly speechDurationSeconds: number | null;
}

/** Where the numbers came from: the real service, or the sandbox's simulation. */
export type ResultSource = 'service' | 'simulated';

export interface RecordingAnalysis {
  readonly apiVersion: ApiVersion;
  /**
   * As received; when the service left it out, the id that was polled (flagged `required_missing`).
   * The answer is about the polled recording when this equals the polled id ignoring letter case
   * (read/analysis.ts, `isAboutRecording`).
   */
  readonly recordingId: string;
  /** As received (possibly not a UUID: flagged); null when absent (flagged). */
  readonly accountId: string | null;
  /** As received (possibly not a date-time: flagged); null when absent (flagged). */
  readonly recordedAt: string | null;
  readonly uploadedAt: string | null;
  readonly audio: AudioFacts;
  readonly source: ResultSource;
  /** One entry per analysis type of the version present in the response, in the catalogue's order. */
  readonly outcomes: readonly AnalysisOutcome[];
  /** Analysis types the version does not list, kept as received (each also flagged `unknown_analysis_type`). */
  readonly unlisted?: readonly UnlistedAnalysis[];
  /** What is odd outside the analysis objects: metadata, unknown top-level members, unknown types. */
  readonly flags?: readonly DataQualityFlag[];
}

/** What the service answered to an accepted upload. */
export interface RecordingReceipt {
  readonly apiVersion: ApiVersion;
  readonly recordingId: string;
  readonly accountId: string | null;
  readonly recordedAt: string | null;
  readonly uploadedAt: string | null;
  readonly audio: AudioFacts;
  readonly source: ResultSource;
  /** What is odd in the receipt itself (compare with what was sent: receipt-check.ts). */
  readonly flags?: readonly DataQualityFlag[];
}

export interface Account {
  readonly accountId: string;
  /** As received; `speaker` is the only role the specification gives (any other is flagged). */
  readonly role: string | null;
  readonly flags?: readonly DataQualityFlag[];
}

export type UsageDetail =
  | {
      readonly kind: 'credits';
      readonly trialRemaining: number;
      readonly trialGranted: number;
      readonly includedRemaining: number;
      readonly includedGranted: number;
      readonly purchasedRemaining: number;
      readonly tier: string | null;
    }
  | { readonly kind: 'upload_count'; readonly used: number; readonly limit: number };

export interface Usage {
  readonly apiVersion: ApiVersion;
  /**
   * Uploads still possible: v1.2 `limit - count`; v1.3 the sum of the three credit buckets, read as one
   * credit per upload (the spec does not say how many credits an upload consumes).
   */
  readonly uploadsRemaining: number;
  readonly detail: UsageDetail;
  /** Negative credits, remaining above granted, fractions, unknown members: kept and flagged. */
  readonly flags?: readonly DataQualityFlag[];
}

/**
 * What became of one upload request. `rejected` means the service certainly did not accept it (nothing
 * charged); `uncertain` means it may have been accepted and charged, and must not be repeated without
 * the researcher's decision (docs/retry-policy.md).
 */
export type UploadOutcome<E> =
  | { readonly status: 'accepted'; readonly receipt: RecordingReceipt; readonly attempts: number }
  | { readonly status: 'rejected'; readonly error: E; readonly attempts: number }
  | { readonly status: 'uncertain'; readonly error: E; readonly attempts: number; readonly reason: string };
