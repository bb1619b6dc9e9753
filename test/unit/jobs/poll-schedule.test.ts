import { describe, expect, it } from 'vitest';
import {
  clampPollSettings,
  createTokenBucket,
  DEFAULT_POLL,
  nextPoll,
  SPEC_FLOOR_MS,
} from '../../../main/jobs/poll-schedule';

const T0 = Date.UTC(2026, 0, 1);
const seq = (...xs: number[]) => {
  let i = 0;
  return () => xs[i++ % xs.length]!;
};

describe('polling schedule (spec: 15–30 s recommended, never under 5 s, five-minute timeout)', () => {
  it('first poll 15 s after upload', () =>
    expect(
      nextPoll({ acceptedAtMs: T0, lastPolledAtMs: null, nowMs: T0 + 1000 }, DEFAULT_POLL, Math.random),
    ).toEqual({ phase: 'normal', at: T0 + 15_000 }));

  it('then every 20 s ± 5 s, always within the recommended 15–30 s', () => {
    for (const r of [0, 0.25, 0.5, 0.75, 0.999]) {
      const n = nextPoll(
        { acceptedAtMs: T0, lastPolledAtMs: T0 + 15_000, nowMs: T0 + 15_000 },
        DEFAULT_POLL,
        () => r,
      );
      expect(n.phase).toBe('normal');
      expect(n.at! - (T0 + 15_000)).toBeGreaterThanOrEqual(15_000);
      expect(n.at! - (T0 + 15_000)).toBeLessThanOrEqual(25_000);
    }
  });

  it('after five minutes the recording is timed out and re-checked slowly, then it is unanswered', () => {
    const late = nextPoll(
      { acceptedAtMs: T0, lastPolledAtMs: T0 + 300_000, nowMs: T0 + 300_000 },
      DEFAULT_POLL,
      () => 0.5,
    );
    expect(late).toEqual({ phase: 'timed_out', at: T0 + 300_000 + DEFAULT_POLL.slowIntervalMs });
    const end = T0 + DEFAULT_POLL.timeoutMs + DEFAULT_POLL.slowForMs;
    expect(
      nextPoll({ acceptedAtMs: T0, lastPolledAtMs: end - 1, nowMs: end }, DEFAULT_POLL, () => 0.5),
    ).toEqual({ phase: 'unanswered', at: null });
  });

  it('researcher settings cannot go under the 5-second floor, even with jitter', () => {
    const s = clampPollSettings({ firstPollAfterMs: 0, intervalMs: 1000, jitterMs: 4000 });
    expect(s.firstPollAfterMs).toBe(SPEC_FLOOR_MS);
    for (const r of [0, 0.5, 0.999]) {
      const n = nextPoll({ acceptedAtMs: T0, lastPolledAtMs: T0 + 10_000, nowMs: T0 + 10_000 }, s, () => r);
      expect(n.at! - (T0 + 10_000)).toBeGreaterThanOrEqual(SPEC_FLOOR_MS);
    }
  });

  it('a long pause (sleep, crash) polls as soon as it resumes, not in the past', () => {
    const n = nextPoll(
      { acceptedAtMs: T0, lastPolledAtMs: T0 + 20_000, nowMs: T0 + 200_000 },
      DEFAULT_POLL,
      seq(0.5),
    );
    expect(n.at).toBe(T0 + 200_000);
  });
});

describe('the schedule reaches an end', () => {
  const s = clampPollSettings({
    firstPollAfterMs: 5_000,
    intervalMs: 6_000,
    jitterMs: 0,
    timeoutMs: 30_000,
    slowIntervalMs: 20_000,
    slowForMs: 60_000,
  });

  /** Polls as the poller does (each at its scheduled time) until the schedule gives up; returns the phases seen. */
  const walk = (settings: typeof s) => {
    const phases: string[] = [];
    let next = nextPoll({ acceptedAtMs: T0, lastPolledAtMs: null, nowMs: T0 }, settings, () => 0.5);
    for (let i = 0; i < 1000 && next.at !== null; i++) {
      const at: number = next.at;
      next = nextPoll({ acceptedAtMs: T0, lastPolledAtMs: at, nowMs: at }, settings, () => 0.5);
      phases.push(next.phase);
    }
    return { phases, last: next };
  };

  it('goes normal → timed_out → unanswered, and unanswered has no next poll', () => {
    const { phases, last } = walk(s);
    expect(last).toEqual({ phase: 'unanswered', at: null });
    expect([...new Set(phases)]).toEqual(['normal', 'timed_out', 'unanswered']);
  });

  it('gives up on time: the last slow re-check falls at the end of the period', () => {
    const end = T0 + s.timeoutMs + s.slowForMs;
    const n = nextPoll({ acceptedAtMs: T0, lastPolledAtMs: end - 15_000, nowMs: end - 15_000 }, s, () => 0.5);
    expect(n).toEqual({ phase: 'timed_out', at: end });
  });

  it("counts from the moment the upload was accepted on this workstation, whatever the service's clock says", () => {
    // The service's uploaded_at six minutes behind is only data: the schedule never sees it.
    const acceptedAtMs = T0;
    const n = nextPoll(
      { acceptedAtMs, lastPolledAtMs: T0 + 10_000, nowMs: T0 + 10_000 },
      DEFAULT_POLL,
      () => 0.5,
    );
    expect(n.phase).toBe('normal');
  });

  it('with the default settings, a recording is timed out five minutes after its upload', () => {
    const at = T0 + DEFAULT_POLL.timeoutMs;
    expect(
      nextPoll({ acceptedAtMs: T0, lastPolledAtMs: at - 1, nowMs: at - 1 }, DEFAULT_POLL, () => 0.5).phase,
    ).toBe('normal');
    expect(nextPoll({ acceptedAtMs: T0, lastPolledAtMs: at, nowMs: at }, DEFAULT_POLL, () => 0.5).phase).toBe(
      'timed_out',
    );
  });
});

describe('global request budget', () => {
  it('never lets more than rate × time + burst requests through', () => {
    let now = 0;
    const bucket = createTokenBucket(2, 4, () => now);
    const sent: number[] = [];
    // 1,000 recordings all due at once: each reserves, waits what it is told, then sends.
    const queue = Array.from({ length: 1000 }, () => 0);
    for (const _ of queue) {
      const wait = bucket.reserve();
      sent.push(now + wait);
    }
    sent.sort((a, b) => a - b);
    for (const windowMs of [1000, 10_000, 60_000]) {
      for (let i = 0; i < sent.length; i++) {
        const inWindow = sent.filter((t) => t >= sent[i]! && t < sent[i]! + windowMs).length;
        expect(inWindow).toBeLessThanOrEqual(Math.ceil((windowMs / 1000) * 2) + 4);
      }
    }
    now = 1_000_000;
    expect(bucket.reserve()).toBe(0);
  });

  it('a 429 pauses everybody until the wait has passed', () => {
    let now = 0;
    const bucket = createTokenBucket(10, 10, () => now);
    bucket.pauseUntil(30_000);
    expect(bucket.reserve()).toBe(30_000);
    now = 30_000;
    expect(bucket.reserve()).toBe(0);
  });
});
