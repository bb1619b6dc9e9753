/** The API client's interface and its options (the client is client.ts). */
import type { ApiError, Endpoint } from '../../shared/api/api-error';
import type { Account, RecordingAnalysis, UploadOutcome, Usage } from '../../shared/api/domain';
import type { AnalysisType, ApiVersion } from '../../shared/api/vocabulary';
import type { Result } from '../../shared/result';
import type { AttemptFailure, RetryConfig } from './retry-policy';
import type { AudioSource } from './upload-body';

export interface ServiceProfile {
  /** Base address without the version, e.g. `https://api.example.org`. */
  readonly baseUrl: string;
  readonly version: ApiVersion;
  readonly apiKey: string;
}

/** One HTTP attempt, as the event log records it: no key, no audio, no participant data. */
export interface ExchangeEvent {
  readonly endpoint: Endpoint;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly attempt: number;
  readonly status: number | null;
  readonly durationMs: number;
  readonly failure: AttemptFailure['kind'] | null;
  readonly bytesSent: number | null;
}

export interface ClientOptions {
  readonly profile: ServiceProfile;
  readonly retry?: Partial<RetryConfig>;
  /** Per attempt, until the whole answer is read. */
  readonly readTimeoutMs?: number;
  /** Upload timeout = baseMs + size ÷ minBytesPerSecond. */
  readonly uploadTimeout?: { readonly baseMs: number; readonly minBytesPerSecond: number };
  /** Answers larger than this are refused as InvalidResponse rather than read into memory. */
  readonly maxResponseBytes?: number;
  /** Replaces Node's fetch for every call but uploads, which have their own streaming transport (upload-transport.ts). */
  readonly fetch?: typeof fetch;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
  readonly now?: () => number;
  readonly observer?: (e: ExchangeEvent) => void;
  /**
   * Which addresses may receive the key (the rule is main/services/key-address.ts, whose `keyedClient`
   * passes it): when it refuses the profile's address, every keyed call is refused before a byte leaves.
   */
  readonly mayReceiveKey?: (baseUrl: string) => boolean;
}

export interface UploadRequest {
  readonly accountId: string;
  /** ISO 8601 date-time with zone. */
  readonly recordedAt: string;
  readonly analyses: readonly AnalysisType[];
  /** v1.3 only; ignored (not sent) in v1.2. */
  readonly isolateOldestSpeaker?: boolean;
  readonly audio: AudioSource;
}

export interface AccountCreation {
  readonly account: Account;
  /** Attempts whose outcome was ambiguous before the one that succeeded (always 0 since such requests are no longer repeated). */
  readonly uncertainAttempts: number;
}

/** Why no account came back; `outcomeUnknown`: the request may have created one (timeout, 5xx, unreadable answer). */
export type AccountRequestError = ApiError & { readonly outcomeUnknown: boolean };

export interface ApiClient {
  readonly profile: Omit<ServiceProfile, 'apiKey'>;
  ping(): Promise<Result<string, ApiError>>;
  /**
   * How far the service's clock is from this workstation's (ms; positive: the service is ahead), from
   * the `Date` header of its latest answer (one-second resolution); null before any answer carried one.
   * Shown to the researcher only: nothing is scheduled on the service's clock.
   */
  serviceClockOffsetMs?(): number | null;
  /** Never repeated after a request that may have reached the service: the error then says `outcomeUnknown`. */
  createAccount(): Promise<Result<AccountCreation, AccountRequestError>>;
  upload(req: UploadRequest): Promise<UploadOutcome<ApiError>>;
  getAnalysis(
    recordingId: string,
    types?: readonly AnalysisType[],
  ): Promise<Result<RecordingAnalysis, ApiError>>;
  getUsage(): Promise<Result<Usage, ApiError>>;
}
