/**
 * The client's retry policy (docs/retry-policy.md), as a pure function of what happened on one attempt.
 * The client asks `decide` after every failed attempt; nothing else in the client decides to repeat a call.
 */
import type { Endpoint } from '../../shared/api/api-error';

/** What one attempt ended with, as far as retrying is concerned. */
export type AttemptFailure =
  | { readonly kind: 'status'; readonly status: number; readonly retryAfterMs: number | null }
  /** The connection failed; `sent` is false only when no byte of the request can have reached the service. */
  | { readonly kind: 'network'; readonly sent: boolean }
  | { readonly kind: 'timeout' }
  /** A 2xx whose body could not be read or broke the schema. */
  | { readonly kind: 'invalid_response' };

export type Decision =
  | { readonly action: 'retry'; readonly delayMs: number; readonly ambiguous: boolean }
  | { readonly action: 'give_up' }
  /**
   * Only for the non-idempotent POSTs (upload, createAccount): the service may have accepted (and, for an
   * upload, charged) the request. Never repeated: the researcher decides.
   */
  | { readonly action: 'uncertain' };

export interface RetryConfig {
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** A Retry-After longer than this is not waited for inside the client: the caller gets RateLimited. */
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryConfig = {
  maxAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
};

/** Attempts for the non-idempotent POSTs, counted separately per reason. */
const POST_LIMITS = { notSent: 3, rateLimited: 3 } as const;

const TRANSIENT_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

/** Equal jitter: half of the exponential delay fixed, half random. `random` returns [0, 1). */
export const backoffMs = (attempt: number, cfg: RetryConfig, random: () => number): number => {
  const exp = Math.min(cfg.maxDelayMs, cfg.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exp / 2 + random() * (exp / 2));
};

/**
 * The longest wait a Retry-After can ask for, as we read it: a day. A larger value (up to hundreds of
 * digits, which a number cannot hold) is read as this, so the wait is always a finite, serialisable
 * number; the engine caps its own pauses further (upload-step.ts, poll-step.ts).
 */
export const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

/** Parses Retry-After (delta-seconds or HTTP date) into milliseconds, or null when absent or unreadable. */
export const parseRetryAfter = (value: string | null, nowMs: number): number | null => {
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed))
    return trimmed.length > 9 ? MAX_RETRY_AFTER_MS : Math.min(Number(trimmed) * 1000, MAX_RETRY_AFTER_MS);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.min(Math.max(0, at - nowMs), MAX_RETRY_AFTER_MS);
};

export interface AttemptHistory {
  /** 1-based number of the attempt that just failed. */
  readonly attempt: number;
  /** Earlier failures of the same call, oldest first (not including this one). */
  readonly previous: readonly AttemptFailure[];
}

const count = (hist: AttemptHistory, f: AttemptFailure, pred: (x: AttemptFailure) => boolean) =>
  hist.previous.filter(pred).length + (pred(f) ? 1 : 0);

const isNotSent = (f: AttemptFailure) => f.kind === 'network' && !f.sent;
const is429 = (f: AttemptFailure) => f.kind === 'status' && f.status === 429;
const isAmbiguous = (f: AttemptFailure) =>
  f.kind === 'timeout' || (f.kind === 'network' && f.sent) || (f.kind === 'status' && f.status >= 500);

/** The wait before retrying a 429: its Retry-After when given and acceptable, else backoff. Null: do not wait inside the client. */
const rateLimitWait = (
  f: AttemptFailure,
  hist: AttemptHistory,
  cfg: RetryConfig,
  random: () => number,
): number | null => {
  if (f.kind !== 'status' || f.retryAfterMs === null) return backoffMs(hist.attempt, cfg, random);
  return f.retryAfterMs <= cfg.maxRetryAfterMs ? f.retryAfterMs : null;
};

/**
 * What the non-idempotent POSTs (createAccount, upload) share: a request that never left is repeated, and
 * so is a 429, each up to its own limit. Null when the failure is neither, and the endpoint decides.
 */
const decidePostRetry = (
  failure: AttemptFailure,
  hist: AttemptHistory,
  cfg: RetryConfig,
  random: () => number,
): Decision | null => {
  if (isNotSent(failure)) {
    return count(hist, failure, isNotSent) < POST_LIMITS.notSent
      ? { action: 'retry', delayMs: backoffMs(hist.attempt, cfg, random), ambiguous: false }
      : { action: 'give_up' };
  }
  if (is429(failure)) {
    const wait = rateLimitWait(failure, hist, cfg, random);
    return wait !== null && count(hist, failure, is429) < POST_LIMITS.rateLimited
      ? { action: 'retry', delayMs: wait, ambiguous: false }
      : { action: 'give_up' };
  }
  return null;
};

export const decide = (
  endpoint: Endpoint,
  failure: AttemptFailure,
  hist: AttemptHistory,
  cfg: RetryConfig = DEFAULT_RETRY,
  random: () => number = Math.random,
): Decision => {
  switch (endpoint) {
    case 'ping':
    case 'getUsage':
    case 'getAnalysis': {
      if (hist.attempt >= cfg.maxAttempts) return { action: 'give_up' };
      const transient =
        failure.kind === 'network' ||
        failure.kind === 'timeout' ||
        (failure.kind === 'status' && TRANSIENT_STATUSES.has(failure.status));
      if (!transient) return { action: 'give_up' };
      const wait = is429(failure)
        ? rateLimitWait(failure, hist, cfg, random)
        : backoffMs(hist.attempt, cfg, random);
      return wait === null ? { action: 'give_up' } : { action: 'retry', delayMs: wait, ambiguous: false };
    }
    // v1.3 cannot list accounts: an account created by a request whose answer was lost could never be
    // found again, and repeating the request would create a second one. Like an upload, it is never
    // repeated blindly (docs/spec-decisions.md, "Account requests with an unknown outcome").
    case 'createAccount':
    case 'upload': {
      const shared = decidePostRetry(failure, hist, cfg, random);
      if (shared !== null) return shared;
      if (isAmbiguous(failure) || failure.kind === 'invalid_response') return { action: 'uncertain' };
      return { action: 'give_up' };
    }
  }
};
