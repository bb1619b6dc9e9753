/**
 * Version-neutral domain types. Both wire versions map into these (see to-domain.ts), so the rest of
 * the application never branches on the API version. Unavailable values are `null` or absent keys,
 * never 0.
 */
import type { AnalysisStatus, AnalysisType, ApiVersion } from './vocabulary';

export type MeasureValue = number | string;

export interface AnalysisOutcome {
  readonly type: AnalysisType;
  readonly status: AnalysisStatus;
  /** Measure key (see measures.ts) to value; a key is absent when the service did not provide it. */
  readonly values: Readonly<Record<string, MeasureValue>>;
}

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
  readonly recordingId: string;
  readonly accountId: string;
  readonly recordedAt: string;
  readonly uploadedAt: string | null;
  readonly audio: AudioFacts;
  readonly source: ResultSource;
  /** One entry per analysis type present in the response, in the catalogue's order. */
  readonly outcomes: readonly AnalysisOutcome[];
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
}

export interface Account {
  readonly accountId: string;
  readonly role: 'speaker' | null;
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
