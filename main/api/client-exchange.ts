/**
 * One exchange with the service, as every endpoint of the client makes it (client-endpoints.ts): an
 * attempt sent and its whole answer read within the deadline, never thrown; the answer read into a
 * domain value or a typed error; each attempt told to the observer; retries under the retry policy.
 */
import ky, { type KyInstance } from 'ky';
import {
  apiError,
  bodyExcerpt,
  classifyHttpError,
  type ApiError,
  type Endpoint,
} from '../../shared/api/api-error';
import { readErrorBody, type Unreadable } from '../../shared/api/read/answers';
import type { ApiVersion } from '../../shared/api/vocabulary';
import { SIMULATED_HEADER } from '../../shared/api/wire-common';
import { err, ok, type Result } from '../../shared/result';
import type { ClientOptions, ServiceProfile } from './client-types';
import {
  DEFAULT_RETRY,
  decide,
  parseRetryAfter,
  type AttemptFailure,
  type RetryConfig,
} from './retry-policy';
import type { JsonUploadBody } from './upload-body';
import { streamingUploadFetch } from './upload-transport';

/** What every exchange of one client reads: its options with their defaults, and the service's clock. */
export interface ClientContext {
  readonly opts: ClientOptions;
  readonly profile: ServiceProfile;
  readonly version: ApiVersion;
  readonly retryCfg: RetryConfig;
  readonly readTimeoutMs: number;
  readonly uploadTimeout: { readonly baseMs: number; readonly minBytesPerSecond: number };
  readonly maxResponseBytes: number;
  readonly sleep: (ms: number) => Promise<void>;
  readonly random: () => number;
  readonly now: () => number;
  /** Set when the key must not be sent to this address: every keyed call is refused before any byte leaves. */
  readonly keyRefused: ((endpoint: Endpoint) => ApiError) | null;
  readonly http: KyInstance;
  /** How far the service's clock is from ours, from the `Date` header of its latest answer. */
  readonly clock: { offsetMs: number | null };
}

export const clientContext = (opts: ClientOptions): ClientContext => {
  const { profile } = opts;
  const version = profile.version;
  return {
    opts,
    profile,
    version,
    retryCfg: { ...DEFAULT_RETRY, ...opts.retry },
    readTimeoutMs: opts.readTimeoutMs ?? 30_000,
    uploadTimeout: opts.uploadTimeout ?? { baseMs: 120_000, minBytesPerSecond: 50_000 },
    maxResponseBytes: opts.maxResponseBytes ?? 5_000_000,
    sleep: opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms))),
    random: opts.random ?? Math.random,
    now: opts.now ?? Date.now,
    keyRefused:
      opts.mayReceiveKey === undefined || opts.mayReceiveKey(profile.baseUrl)
        ? null
        : (endpoint: Endpoint) =>
            apiError('InsecureAddress', endpoint, {
              detail: 'refused locally: an API key is sent only over https (or plain http to this computer)',
            }),
    http: ky.create({
      prefixUrl: `${profile.baseUrl.replace(/\/+$/, '')}/${version}/`,
      retry: 0,
      throwHttpErrors: false,
      redirect: 'manual',
      timeout: false,
      ...(opts.fetch ? { fetch: opts.fetch } : {}),
    }),
    clock: { offsetMs: null },
  };
};

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

export type RawAttempt =
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
export type Reader<T> = (json: unknown, simulatedHeader: boolean) => Result<T, Unreadable>;

const noteServiceClock = (cx: ClientContext, date: string | null) => {
  const at = date === null ? NaN : Date.parse(date);
  if (!Number.isNaN(at)) cx.clock.offsetMs = at - cx.now();
};

/** One attempt: send, read the whole answer within the deadline, never throw. */
export const attemptOnce = async (
  cx: ClientContext,
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
  if (init.auth) headers['Authorization'] = `Bearer ${cx.profile.apiKey}`;
  if (init.upload) {
    headers['Content-Type'] = 'application/json';
    headers['Content-Length'] = String(init.upload.contentLength);
  }
  try {
    const res = await cx.http(path, {
      method,
      headers,
      signal: controller.signal,
      ...(init.json !== undefined ? { json: init.json } : {}),
      ...(init.upload ? { fetch: streamingUploadFetch(init.upload.chunks, headers) } : {}),
    });
    const body = await readCapped(res, cx.maxResponseBytes);
    noteServiceClock(cx, res.headers.get('date'));
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

export type Parsed<T> = { ok: true; value: T } | { ok: false; failure: AttemptFailure; error: ApiError };

/** A 2xx answer read into a domain value, or an InvalidResponse naming what could not be read. */
const readSuccess = <T>(
  cx: ClientContext,
  endpoint: Endpoint,
  raw: RawAttempt & { kind: 'response' },
  readAnswer: Reader<T>,
): Parsed<T> => {
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
        bodyExcerpt: bodyExcerpt(raw.body, cx.profile.apiKey),
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
        bodyExcerpt: bodyExcerpt(raw.body, cx.profile.apiKey),
      }),
    };
  }
  return { ok: true, value: read.value };
};

/** Turns a raw attempt into a read value or a typed error plus the failure the retry policy sees. */
export const interpret = <T>(
  cx: ClientContext,
  endpoint: Endpoint,
  raw: RawAttempt,
  readAnswer: Reader<T>,
): Parsed<T> => {
  if (raw.kind === 'failed') {
    const kind =
      raw.failure.kind === 'timeout'
        ? 'Timeout'
        : raw.failure.kind === 'invalid_response'
          ? 'InvalidResponse'
          : 'NetworkError';
    return { ok: false, failure: raw.failure, error: apiError(kind, endpoint, { detail: raw.detail }) };
  }
  if (raw.status >= 200 && raw.status < 300) return readSuccess(cx, endpoint, raw, readAnswer);
  // Read whatever the envelope holds; a proxy's HTML page or an empty 500 keeps the status alone.
  const { type: serviceType, message: serviceMessage } = readErrorBody(raw.body);
  const retryAfterMs = parseRetryAfter(raw.headers.get('retry-after'), cx.now());
  const kind = classifyHttpError(raw.status, serviceType, endpoint);
  return {
    ok: false,
    failure: { kind: 'status', status: raw.status, retryAfterMs },
    error: apiError(kind, endpoint, { status: raw.status, serviceType, serviceMessage, retryAfterMs }),
  };
};

/** Tells the observer about one attempt: no key, no audio, no participant data. */
export const emit = (
  cx: ClientContext,
  endpoint: Endpoint,
  method: 'GET' | 'POST',
  path: string,
  attempt: number,
  startedAt: number,
  raw: RawAttempt,
  failure: AttemptFailure | null,
  bytesSent: number | null,
) =>
  cx.opts.observer?.({
    endpoint,
    method,
    path,
    attempt,
    status: raw.kind === 'response' ? raw.status : null,
    durationMs: cx.now() - startedAt,
    failure: failure?.kind ?? null,
    bytesSent,
  });

/** Runs an idempotent or retry-safe call under the retry policy. */
export const call = async <T>(
  cx: ClientContext,
  endpoint: Exclude<Endpoint, 'upload'>,
  method: 'GET' | 'POST',
  path: string,
  read: Reader<T>,
  init: { auth: boolean; json?: unknown },
): Promise<{ result: Result<T, ApiError>; ambiguousRetries: number; outcomeUnknown: boolean }> => {
  if (init.auth && cx.keyRefused)
    return { result: err(cx.keyRefused(endpoint)), ambiguousRetries: 0, outcomeUnknown: false };
  const previous: AttemptFailure[] = [];
  let ambiguousRetries = 0;
  for (let attempt = 1; ; attempt++) {
    const startedAt = cx.now();
    const raw = await attemptOnce(cx, method, path, { ...init, timeoutMs: cx.readTimeoutMs });
    const parsed = interpret(cx, endpoint, raw, read);
    emit(cx, endpoint, method, path, attempt, startedAt, raw, parsed.ok ? null : parsed.failure, null);
    if (parsed.ok) return { result: ok(parsed.value), ambiguousRetries, outcomeUnknown: false };
    const decision = decide(endpoint, parsed.failure, { attempt, previous }, cx.retryCfg, cx.random);
    if (decision.action !== 'retry')
      return {
        result: err(parsed.error),
        ambiguousRetries,
        outcomeUnknown: decision.action === 'uncertain',
      };
    if (decision.ambiguous) ambiguousRetries++;
    previous.push(parsed.failure);
    await cx.sleep(decision.delayMs);
  }
};
