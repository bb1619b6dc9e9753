/**
 * The API client: every endpoint of the specification, both versions, over ky. Answers are read
 * tolerantly, part by part (shared/api/read/answers.ts): odd values are kept and flagged, and only an
 * answer that cannot be read at all is an error. Failures come back as typed values (`ApiError`), never
 * thrown. Retries follow retry-policy.ts; ky's own retry is off.
 */
import ky, { type KyInstance } from 'ky';
import {
  apiError,
  bodyExcerpt,
  classifyHttpError,
  type ApiError,
  type Endpoint,
} from '../../shared/api/api-error';
import type { Account, RecordingAnalysis, UploadOutcome, Usage } from '../../shared/api/domain';
import {
  readAccount,
  readAnalysisAnswer,
  readErrorBody,
  readReceipt,
  readUsage,
  type Unreadable,
} from '../../shared/api/read/answers';
import { analysisTypesFor, type AnalysisType, type ApiVersion } from '../../shared/api/vocabulary';
import { SIMULATED_HEADER } from '../../shared/api/wire-common';
import { err, ok, type Result } from '../../shared/result';
import {
  DEFAULT_RETRY,
  decide,
  parseRetryAfter,
  type AttemptFailure,
  type RetryConfig,
} from './retry-policy';
import { jsonUploadBody, type AudioSource, type JsonUploadBody } from './upload-body';
import { streamingUploadFetch } from './upload-transport';

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

/** Connection errors that happen before any request byte can reach the server. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EADDRNOTAVAIL',
  'ERR_INVALID_URL',
]);

const errorCode = (e: unknown): string | null => {
  let cur: unknown = e;
  for (let depth = 0; depth < 5 && cur && typeof cur === 'object'; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return null;
};

type RawAttempt =
  | { readonly kind: 'response'; readonly status: number; readonly headers: Headers; readonly body: string }
  | { readonly kind: 'failed'; readonly failure: AttemptFailure; readonly detail: string };

class BodyTooLarge extends Error {}

const readCapped = async (res: Response, cap: number): Promise<string> => {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > cap) {
      await reader.cancel();
      throw new BodyTooLarge(`answer larger than ${cap} bytes`);
    }
    parts.push(value);
  }
  return Buffer.concat(parts).toString('utf8');
};

/** Reads a parsed JSON answer into a domain value, or says why it cannot be read at all. */
type Reader<T> = (json: unknown, simulatedHeader: boolean) => Result<T, Unreadable>;

const readPing: Reader<string> = (json) =>
  json !== null && typeof json === 'object' && typeof (json as { message?: unknown }).message === 'string'
    ? ok((json as { message: string }).message)
    : err({ path: 'message', detail: 'expected text' });

export const createApiClient = (opts: ClientOptions): ApiClient => {
  const { profile } = opts;
  const version = profile.version;
  const retryCfg: RetryConfig = { ...DEFAULT_RETRY, ...opts.retry };
  const readTimeoutMs = opts.readTimeoutMs ?? 30_000;
  const uploadTimeout = opts.uploadTimeout ?? { baseMs: 120_000, minBytesPerSecond: 50_000 };
  const maxResponseBytes = opts.maxResponseBytes ?? 5_000_000;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const random = opts.random ?? Math.random;
  const now = opts.now ?? Date.now;
  /** Set when the key must not be sent to this address: every keyed call is refused before any byte leaves. */
  const keyRefused =
    opts.mayReceiveKey === undefined || opts.mayReceiveKey(profile.baseUrl)
      ? null
      : (endpoint: Endpoint) =>
          apiError('InsecureAddress', endpoint, {
            detail: 'refused locally: an API key is sent only over https (or plain http to this computer)',
          });

  const http: KyInstance = ky.create({
    prefixUrl: `${profile.baseUrl.replace(/\/+$/, '')}/${version}/`,
    retry: 0,
    throwHttpErrors: false,
    redirect: 'manual',
    timeout: false,
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  });

  /** One attempt: send, read the whole answer within the deadline, never throw. */
  const attemptOnce = async (
    method: 'GET' | 'POST',
    path: string,
    init: { auth: boolean; json?: unknown; upload?: JsonUploadBody; timeoutMs: number },
  ): Promise<RawAttempt> => {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, init.timeoutMs);
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (init.auth) headers['Authorization'] = `Bearer ${profile.apiKey}`;
    if (init.upload) {
      headers['Content-Type'] = 'application/json';
      headers['Content-Length'] = String(init.upload.contentLength);
    }
    try {
      const res = await http(path, {
        method,
        headers,
        signal: controller.signal,
        ...(init.json !== undefined ? { json: init.json } : {}),
        ...(init.upload ? { fetch: streamingUploadFetch(init.upload.chunks, headers) } : {}),
      });
      const body = await readCapped(res, maxResponseBytes);
      noteServiceClock(res.headers.get('date'));
      return { kind: 'response', status: res.status, headers: res.headers, body };
    } catch (e) {
      if (e instanceof BodyTooLarge)
        return { kind: 'failed', failure: { kind: 'invalid_response' }, detail: e.message };
      if (timedOut)
        return {
          kind: 'failed',
          failure: { kind: 'timeout' },
          detail: `no complete answer within ${init.timeoutMs} ms`,
        };
      const code = errorCode(e);
      const nothingPulled = init.upload ? init.upload.bytesDelivered() === 0 : false;
      const sent = !(code !== null && NOT_SENT_CODES.has(code)) && !nothingPulled;
      return {
        kind: 'failed',
        failure: { kind: 'network', sent },
        detail: code ?? (e instanceof Error ? e.message : String(e)),
      };
    } finally {
      clearTimeout(timer);
    }
  };

  type Parsed<T> = { ok: true; value: T } | { ok: false; failure: AttemptFailure; error: ApiError };

  /** Turns a raw attempt into a read value or a typed error plus the failure the retry policy sees. */
  let clockOffsetMs: number | null = null;
  const noteServiceClock = (date: string | null) => {
    const at = date === null ? NaN : Date.parse(date);
    if (!Number.isNaN(at)) clockOffsetMs = at - now();
  };

  const interpret = <T>(endpoint: Endpoint, raw: RawAttempt, readAnswer: Reader<T>): Parsed<T> => {
    if (raw.kind === 'failed') {
      const kind =
        raw.failure.kind === 'timeout'
          ? 'Timeout'
          : raw.failure.kind === 'invalid_response'
            ? 'InvalidResponse'
            : 'NetworkError';
      return { ok: false, failure: raw.failure, error: apiError(kind, endpoint, { detail: raw.detail }) };
    }
    if (raw.status >= 200 && raw.status < 300) {
      let json: unknown;
      try {
        json = JSON.parse(raw.body);
      } catch (e) {
        return {
          ok: false,
          failure: { kind: 'invalid_response' },
          error: apiError('InvalidResponse', endpoint, {
            status: raw.status,
            path: '(body)',
            detail: `not JSON: ${e instanceof Error ? e.message.slice(0, 200) : 'parse error'}`,
            bodyExcerpt: bodyExcerpt(raw.body, profile.apiKey),
          }),
        };
      }
      const read = readAnswer(json, raw.headers.get(SIMULATED_HEADER) === '1');
      if (!read.ok) {
        return {
          ok: false,
          failure: { kind: 'invalid_response' },
          error: apiError('InvalidResponse', endpoint, {
            status: raw.status,
            path: read.error.path,
            detail: read.error.detail.slice(0, 300),
            bodyExcerpt: bodyExcerpt(raw.body, profile.apiKey),
          }),
        };
      }
      return { ok: true, value: read.value };
    }
    // Read whatever the envelope holds; a proxy's HTML page or an empty 500 keeps the status alone.
    const { type: serviceType, message: serviceMessage } = readErrorBody(raw.body);
    const retryAfterMs = parseRetryAfter(raw.headers.get('retry-after'), now());
    const kind = classifyHttpError(raw.status, serviceType, endpoint);
    return {
      ok: false,
      failure: { kind: 'status', status: raw.status, retryAfterMs },
      error: apiError(kind, endpoint, { status: raw.status, serviceType, serviceMessage, retryAfterMs }),
    };
  };

  const emit = (
    endpoint: Endpoint,
    method: 'GET' | 'POST',
    path: string,
    attempt: number,
    startedAt: number,
    raw: RawAttempt,
    failure: AttemptFailure | null,
    bytesSent: number | null,
  ) =>
    opts.observer?.({
      endpoint,
      method,
      path,
      attempt,
      status: raw.kind === 'response' ? raw.status : null,
      durationMs: now() - startedAt,
      failure: failure?.kind ?? null,
      bytesSent,
    });

  /** Runs an idempotent or retry-safe call under the retry policy. */
  const call = async <T>(
    endpoint: Exclude<Endpoint, 'upload'>,
    method: 'GET' | 'POST',
    path: string,
    read: Reader<T>,
    init: { auth: boolean; json?: unknown },
  ): Promise<{ result: Result<T, ApiError>; ambiguousRetries: number; outcomeUnknown: boolean }> => {
    if (init.auth && keyRefused)
      return { result: err(keyRefused(endpoint)), ambiguousRetries: 0, outcomeUnknown: false };
    const previous: AttemptFailure[] = [];
    let ambiguousRetries = 0;
    for (let attempt = 1; ; attempt++) {
      const startedAt = now();
      const raw = await attemptOnce(method, path, { ...init, timeoutMs: readTimeoutMs });
      const parsed = interpret(endpoint, raw, read);
      emit(endpoint, method, path, attempt, startedAt, raw, parsed.ok ? null : parsed.failure, null);
      if (parsed.ok) return { result: ok(parsed.value), ambiguousRetries, outcomeUnknown: false };
      const decision = decide(endpoint, parsed.failure, { attempt, previous }, retryCfg, random);
      if (decision.action !== 'retry')
        return {
          result: err(parsed.error),
          ambiguousRetries,
          outcomeUnknown: decision.action === 'uncertain',
        };
      if (decision.ambiguous) ambiguousRetries++;
      previous.push(parsed.failure);
      await sleep(decision.delayMs);
    }
  };

  return {
    profile: { baseUrl: profile.baseUrl, version },
    serviceClockOffsetMs: () => clockOffsetMs,

    async ping() {
      const { result } = await call('ping', 'GET', 'ping', readPing, { auth: false });
      return result;
    },

    async createAccount() {
      const { result, ambiguousRetries, outcomeUnknown } = await call(
        'createAccount',
        'POST',
        'accounts',
        (json) => readAccount(version, json),
        { auth: true, ...(version === 'v1.2' ? { json: {} } : {}) },
      );
      if (!result.ok) return err({ ...result.error, outcomeUnknown });
      const account: Account = result.value;
      return ok({ account, uncertainAttempts: ambiguousRetries });
    },

    async upload(req) {
      if (keyRefused) return { status: 'rejected', attempts: 0, error: keyRefused('upload') };
      const allowed = analysisTypesFor(version);
      const bad = req.analyses.find((t) => !allowed.includes(t));
      if (req.analyses.length === 0 || bad !== undefined) {
        return {
          status: 'rejected',
          attempts: 0,
          error: apiError('BadRequest', 'upload', {
            detail: bad ? `${bad} is not an analysis type of ${version}` : 'no analysis type requested',
          }),
        };
      }
      const fields: Record<string, unknown> = {
        account_id: req.accountId,
        recorded_at: req.recordedAt,
        analysis: [...req.analyses],
        ...(version === 'v1.3' && req.isolateOldestSpeaker !== undefined
          ? { isolate_oldest_speaker: req.isolateOldestSpeaker }
          : {}),
      };
      const timeoutMs =
        uploadTimeout.baseMs + Math.ceil((req.audio.sizeBytes / uploadTimeout.minBytesPerSecond) * 1000);
      const previous: AttemptFailure[] = [];
      for (let attempt = 1; ; attempt++) {
        const body = jsonUploadBody(fields, req.audio);
        const startedAt = now();
        const raw = await attemptOnce('POST', 'recordings', { auth: true, upload: body, timeoutMs });
        const parsed = interpret('upload', raw, (json, simulated) => readReceipt(version, json, simulated));
        emit(
          'upload',
          'POST',
          'recordings',
          attempt,
          startedAt,
          raw,
          parsed.ok ? null : parsed.failure,
          body.bytesDelivered(),
        );
        if (parsed.ok) {
          const receipt = parsed.value;
          if (receipt) return { status: 'accepted', receipt, attempts: attempt };
          return {
            status: 'uncertain',
            attempts: attempt,
            reason: 'The service accepted the upload but did not say which recording it created.',
            error: apiError('InvalidResponse', 'upload', {
              status: 200,
              path: 'recording_id',
              detail: 'accepted without a recording_id',
            }),
          };
        }
        const decision = decide('upload', parsed.failure, { attempt, previous }, retryCfg, random);
        if (decision.action === 'uncertain') {
          return {
            status: 'uncertain',
            error: parsed.error,
            attempts: attempt,
            reason: uncertainReason(parsed.failure),
          };
        }
        if (decision.action === 'give_up')
          return { status: 'rejected', error: parsed.error, attempts: attempt };
        previous.push(parsed.failure);
        await sleep(decision.delayMs);
      }
    },

    async getAnalysis(recordingId, types) {
      const query = types && types.length ? `?analysis=${types.map(encodeURIComponent).join(',')}` : '';
      const { result } = await call(
        'getAnalysis',
        'GET',
        `recordings/${encodeURIComponent(recordingId)}/analysis${query}`,
        (json, simulatedHeader) =>
          readAnalysisAnswer(version, json, { simulatedHeader, polledRecordingId: recordingId }),
        { auth: true },
      );
      return result;
    },

    async getUsage() {
      const { result } = await call(
        'getUsage',
        'GET',
        'usage/recordings',
        (json) => readUsage(version, json),
        {
          auth: true,
        },
      );
      return result;
    },
  };
};

const uncertainReason = (f: AttemptFailure): string => {
  switch (f.kind) {
    case 'timeout':
      return 'The upload was sent but no answer came back in time; the service may have accepted it.';
    case 'network':
      return 'The connection broke after the upload was sent; the service may have accepted it.';
    case 'status':
      return `The service failed (HTTP ${f.status}) after receiving the upload; it may have accepted it.`;
    case 'invalid_response':
      return 'The service answered the upload with something unreadable; it may have accepted it.';
  }
};
