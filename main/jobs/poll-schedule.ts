/**
 * When to ask the service for a recording's results again (spec: Limits, "Polling interval" and
 * "Polling timeout"). Pure functions of the settings, the clock and a random source, so the
 * scheduler's timing is testable without timers.
 *
 * Schedule: first poll `firstPollAfterMs` after upload; then every `intervalMs ± jitterMs`, never
 * closer than the spec's 5-second floor; after `timeoutMs` (five minutes) the recording counts as
 * timed out but is re-checked every `slowIntervalMs` for `slowForMs`, because results can still
 * arrive; then it is `unanswered` (terminal, no next poll) until the researcher asks for one more check.
 *
 * Every age is counted on the engine's clock, from the moment the upload was accepted as the engine
 * saw it (`recordings.accepted_at`), never from the service's `uploaded_at`: a service clock minutes
 * behind must not time out a fresh upload. The engine's clock is the workstation's on a SQLite study
 * and the database's on a shared one (main/engine/database-clock.ts), so that every workstation reads
 * the schedule kept in the database against the same clock. A poll that fails (5xx, network, unreadable answer) moves
 * through the same schedule as one that answers `processing`, so failing polls also reach the end.
 */
import { LIMITS } from '../../shared/api/vocabulary';

export interface PollSettings {
  readonly firstPollAfterMs: number;
  readonly intervalMs: number;
  readonly jitterMs: number;
  readonly timeoutMs: number;
  readonly slowIntervalMs: number;
  readonly slowForMs: number;
  /** One budget for all recordings together: requests per second, and the burst allowed. */
  readonly globalRatePerSecond: number;
  readonly globalBurst: number;
}

export const SPEC_FLOOR_MS = LIMITS.pollMinIntervalSeconds * 1000;

export const DEFAULT_POLL: PollSettings = {
  firstPollAfterMs: 15_000,
  intervalMs: 20_000,
  jitterMs: 5_000,
  timeoutMs: LIMITS.pollTimeoutSeconds * 1000,
  slowIntervalMs: 10 * 60_000,
  slowForMs: 24 * 60 * 60_000,
  globalRatePerSecond: 2,
  globalBurst: 4,
};

/** Brings researcher-tuned settings within the spec: nothing polls more often than every 5 s. */
export const clampPollSettings = (s: Partial<PollSettings>): PollSettings => {
  const m = { ...DEFAULT_POLL, ...s };
  const jitterMs = Math.max(0, Math.min(m.jitterMs, m.intervalMs / 2));
  return {
    ...m,
    firstPollAfterMs: Math.max(SPEC_FLOOR_MS, m.firstPollAfterMs),
    intervalMs: Math.max(SPEC_FLOOR_MS + jitterMs, m.intervalMs),
    jitterMs,
    timeoutMs: Math.max(m.timeoutMs, SPEC_FLOOR_MS),
    slowIntervalMs: Math.max(m.slowIntervalMs, m.intervalMs),
    slowForMs: Math.max(0, m.slowForMs),
    globalRatePerSecond: Math.max(0.01, m.globalRatePerSecond),
    globalBurst: Math.max(1, Math.floor(m.globalBurst)),
  };
};

/** Where a recording stands in the schedule: polled, re-checked slowly after the timeout, or given up. */
export type PollPhase = 'normal' | 'timed_out' | 'unanswered';

export type NextPoll =
  | { readonly phase: 'normal' | 'timed_out'; /** Epoch ms of the next poll. */ readonly at: number }
  /** Terminal: no next poll until the researcher asks for one more check. */
  | { readonly phase: 'unanswered'; readonly at: null };

export const nextPoll = (
  args: {
    /** When the upload was accepted, on the workstation's clock (epoch ms). */
    acceptedAtMs: number;
    lastPolledAtMs: number | null;
    nowMs: number;
  },
  s: PollSettings,
  random: () => number,
): NextPoll => {
  const { acceptedAtMs, lastPolledAtMs, nowMs } = args;
  if (lastPolledAtMs === null)
    return { phase: 'normal', at: Math.max(nowMs, acceptedAtMs + s.firstPollAfterMs) };
  const age = nowMs - acceptedAtMs;
  if (age >= s.timeoutMs + s.slowForMs) return { phase: 'unanswered', at: null };
  const timedOut = age >= s.timeoutMs;
  const base = timedOut ? s.slowIntervalMs : s.intervalMs;
  const jitter = timedOut ? 0 : (random() * 2 - 1) * s.jitterMs;
  // The last slow re-check falls at the end of the period, so "unanswered" comes on time.
  const at = Math.min(
    Math.max(lastPolledAtMs + SPEC_FLOOR_MS, lastPolledAtMs + base + jitter, nowMs),
    Math.max(lastPolledAtMs + SPEC_FLOOR_MS, nowMs, acceptedAtMs + s.timeoutMs + s.slowForMs),
  );
  return { phase: timedOut ? 'timed_out' : 'normal', at: Math.round(at) };
};

/** A token bucket shared by all polls: `reserve()` says how long to wait before the next request may go. */
export interface TokenBucket {
  reserve(): number;
  /** Gives back a token reserved for a request that was not sent after all. */
  refund(): void;
  /** After a 429: nobody sends until `untilMs`. */
  pauseUntil(untilMs: number): void;
}

export const createTokenBucket = (ratePerSecond: number, burst: number, now: () => number): TokenBucket => {
  let tokens = burst;
  let last = now();
  let pausedUntil = 0;
  const intervalMs = 1000 / ratePerSecond;
  return {
    reserve() {
      const t = now();
      tokens = Math.min(burst, tokens + (t - last) / intervalMs);
      last = t;
      tokens -= 1;
      const wait = tokens >= 0 ? 0 : -tokens * intervalMs;
      return Math.max(wait, pausedUntil - t);
    },
    refund() {
      tokens = Math.min(burst, tokens + 1);
    },
    pauseUntil(untilMs) {
      pausedUntil = Math.max(pausedUntil, untilMs);
    },
  };
};

/**
 * The request budget as the engine takes it: a token bucket kept in this process (`inProcessBudget`)
 * or in the study database, shared by every workstation (main/engine/request-budget.ts).
 */
export interface RequestBudget {
  /** Takes a token now; resolves to how long (ms) to wait before the request may go. */
  reserve(): Promise<number>;
  /** Gives back a token reserved for a request that was not sent after all. */
  refund(): Promise<void>;
  /** After a 429: nobody sends until `untilMs`. */
  pauseUntil(untilMs: number): void;
}

export const inProcessBudget = (bucket: TokenBucket): RequestBudget => ({
  reserve: () => Promise.resolve(bucket.reserve()),
  refund: () => Promise.resolve(bucket.refund()),
  pauseUntil: (untilMs) => bucket.pauseUntil(untilMs),
});
