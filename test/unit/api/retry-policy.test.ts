import { describe, expect, it } from 'vitest';
import type { Endpoint } from '../../../shared/api/api-error';
import {
  backoffMs,
  decide,
  DEFAULT_RETRY,
  parseRetryAfter,
  type AttemptFailure,
  type Decision,
} from '../../../main/api/retry-policy';

const status = (s: number, retryAfterMs: number | null = null): AttemptFailure => ({
  kind: 'status',
  status: s,
  retryAfterMs,
});
const notSent: AttemptFailure = { kind: 'network', sent: false };
const lostAfterSend: AttemptFailure = { kind: 'network', sent: true };
const timeout: AttemptFailure = { kind: 'timeout' };
const invalid: AttemptFailure = { kind: 'invalid_response' };

const first = (endpoint: Endpoint, f: AttemptFailure): Decision['action'] =>
  decide(endpoint, f, { attempt: 1, previous: [] }, DEFAULT_RETRY, () => 0.5).action;

describe('retry policy, call by call (docs/retry-policy.md)', () => {
  describe.each(['ping', 'getUsage', 'getAnalysis'] as const)('GET %s', (endpoint) => {
    it.each([
      ['network error', lostAfterSend],
      ['connection refused', notSent],
      ['timeout', timeout],
      ['408', status(408)],
      ['429', status(429)],
      ['500', status(500)],
      ['502', status(502)],
      ['503', status(503)],
      ['504', status(504)],
    ])('retries after %s', (_, f) => expect(first(endpoint, f)).toBe('retry'));

    it.each([
      ['400', status(400)],
      ['401', status(401)],
      ['403', status(403)],
      ['404', status(404)],
      ['413', status(413)],
      ['a 200 that breaks the schema', invalid],
    ])('never retries %s', (_, f) => expect(first(endpoint, f)).toBe('give_up'));

    it('stops after four attempts in all', () => {
      const previous = [status(500), status(500), status(500)];
      expect(decide(endpoint, status(500), { attempt: 4, previous }).action).toBe('give_up');
      expect(decide(endpoint, status(500), { attempt: 3, previous: previous.slice(1) }).action).toBe('retry');
    });
  });

  describe('POST /accounts', () => {
    it('retries when nothing was sent, up to three attempts', () => {
      expect(decide('createAccount', notSent, { attempt: 1, previous: [] }).action).toBe('retry');
      expect(decide('createAccount', notSent, { attempt: 3, previous: [notSent, notSent] }).action).toBe(
        'give_up',
      );
    });
    it.each([
      ['timeout', timeout],
      ['500', status(500)],
      ['connection lost after sending', lostAfterSend],
      ['an unreadable 200', { kind: 'invalid_response' as const }],
    ])('never repeats a request whose outcome is unknown (%s): uncertain, the researcher decides', (_, f) => {
      // v1.3 cannot list accounts: a second request would leave the first account lost.
      expect(first('createAccount', f)).toBe('uncertain');
      expect(decide('createAccount', f, { attempt: 2, previous: [notSent] }).action).toBe('uncertain');
    });
    it.each([
      ['400', status(400)],
      ['401', status(401)],
      ['403', status(403)],
    ])('never retries %s', (_, f) => expect(first('createAccount', f)).toBe('give_up'));
  });

  describe('POST /recordings (costs credits, no idempotency key)', () => {
    it('retries when no byte of the request can have reached the service', () =>
      expect(first('upload', notSent)).toBe('retry'));
    it('retries 429 (refused by the rate limiter before processing), at most three attempts', () => {
      expect(first('upload', status(429))).toBe('retry');
      expect(decide('upload', status(429), { attempt: 3, previous: [status(429), status(429)] }).action).toBe(
        'give_up',
      );
    });
    it.each([
      ['a timeout', timeout],
      ['the connection breaking after the body was sent', lostAfterSend],
      ['500', status(500)],
      ['502', status(502)],
      ['503', status(503)],
      ['504', status(504)],
      ['a 200 whose body cannot be read', invalid],
    ])('marks the upload uncertain, never retried, after %s', (_, f) =>
      expect(first('upload', f)).toBe('uncertain'),
    );
    it.each([
      ['400', status(400)],
      ['401', status(401)],
      ['403', status(403)],
      ['404', status(404)],
      ['413 (file too large: permanent)', status(413)],
    ])('gives up without retrying on %s', (_, f) => expect(first('upload', f)).toBe('give_up'));
    it('never retries after an uncertain outcome even if the next failure would be retryable', () => {
      expect(decide('upload', notSent, { attempt: 2, previous: [notSent] }).action).toBe('retry');
      expect(decide('upload', timeout, { attempt: 2, previous: [notSent] }).action).toBe('uncertain');
    });
  });

  describe('Retry-After', () => {
    it('is waited for exactly when within the limit', () => {
      expect(decide('getAnalysis', status(429, 7000), { attempt: 1, previous: [] })).toEqual({
        action: 'retry',
        delayMs: 7000,
        ambiguous: false,
      });
      expect(decide('upload', status(429, 2000), { attempt: 1, previous: [] })).toEqual({
        action: 'retry',
        delayMs: 2000,
        ambiguous: false,
      });
    });
    it('longer than maxRetryAfterMs hands the wait back to the caller', () =>
      expect(decide('getAnalysis', status(429, 120_000), { attempt: 1, previous: [] }).action).toBe(
        'give_up',
      ));
    it('parses delta-seconds and HTTP dates', () => {
      expect(parseRetryAfter('12', 0)).toBe(12_000);
      expect(parseRetryAfter(new Date(30_000).toUTCString(), 0)).toBe(30_000);
      expect(parseRetryAfter('soon', 0)).toBeNull();
      expect(parseRetryAfter(null, 0)).toBeNull();
    });
    it('reads any wait longer than a day, however many digits, as a day (always a finite number)', () => {
      expect(parseRetryAfter('86400', 0)).toBe(86_400_000);
      expect(parseRetryAfter('86401', 0)).toBe(86_400_000);
      expect(parseRetryAfter('9'.repeat(400), 0)).toBe(86_400_000);
      expect(parseRetryAfter(new Date(Date.UTC(2099, 0, 1)).toUTCString(), 0)).toBe(86_400_000);
    });
  });

  describe('backoff', () => {
    it('grows exponentially with equal jitter and is capped', () => {
      expect(backoffMs(1, DEFAULT_RETRY, () => 0)).toBe(250);
      expect(backoffMs(1, DEFAULT_RETRY, () => 0.999)).toBeLessThanOrEqual(500);
      expect(backoffMs(3, DEFAULT_RETRY, () => 0)).toBe(1000);
      expect(backoffMs(20, DEFAULT_RETRY, () => 0.999)).toBeLessThanOrEqual(DEFAULT_RETRY.maxDelayMs);
      expect(backoffMs(20, DEFAULT_RETRY, () => 0)).toBe(DEFAULT_RETRY.maxDelayMs / 2);
    });
  });
});
