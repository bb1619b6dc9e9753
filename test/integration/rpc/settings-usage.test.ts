/**
 * settings.* and usage.* through the router: the researcher's tuning is kept within the specification
 * (never polling more often than every 5 seconds) and survives a restart; the built-in sandbox's
 * behaviour can be chosen for training; usage is read from the service, kept as history, and each
 * study's spending is counted from its recordings.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestHost, type TestHost } from './test-host';

let t: TestHost;
beforeEach(async () => {
  t = await openTestHost();
});
afterEach(() => t.close());

describe('settings', () => {
  it('clamps what the researcher asks to the specification: never more often than every 5 s', async () => {
    const s = await t.must('settings.save', {
      firstPollSeconds: 5,
      pollIntervalSeconds: 5,
      pollJitterSeconds: 4,
    });
    expect(s.firstPollSeconds).toBe(5);
    expect(s.pollJitterSeconds).toBeLessThanOrEqual(s.pollIntervalSeconds / 2);
    expect(s.pollIntervalSeconds - s.pollJitterSeconds).toBeGreaterThanOrEqual(5);
    expect(s.uploadsPerMinute).toBeLessThanOrEqual(600); // the test host asks for 6,000: ten a second at most
    expect(await t.call('settings.save', { pollIntervalSeconds: 1 })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION' },
    });
    expect(await t.must('settings.get', {})).toEqual(s);
  });

  it('switches the built-in sandbox between behaviours, for training', async () => {
    expect((await t.must('sandbox.state', {})).running).toBe(false);
    await t.sandboxStudy('Training');
    expect(await t.must('sandbox.setScenario', { scenario: 'flaky' })).toMatchObject({
      running: true,
      scenario: 'flaky',
    });
    expect(((await t.sandboxAdmin('GET', 'scenario')) as { name: string }).name).toBe('flaky');
  });
});

describe('usage', () => {
  it('reads usage from the service, keeps it as history, and counts what each study spent', async () => {
    const { profileId } = await t.sandboxStudy('Spending');
    expect((await t.must('usage.overview', { profileId })).latest).toBeNull();
    const u = await t.must('usage.read', { profileId });
    expect(u).toMatchObject({
      apiVersion: 'v1.3',
      uploadsRemaining: 110,
      detail: { kind: 'credits', trialRemaining: 10, includedRemaining: 100 },
    });
    await t.must('usage.read', { profileId });
    const o = await t.must('usage.overview', { profileId });
    expect(o.latest?.usage.uploadsRemaining).toBe(110);
    expect(o.history).toHaveLength(2);
    expect(o.studies).toEqual([
      { studyId: expect.any(Number), name: 'Spending', uploadsAccepted: 0, uploadsUncertain: 0, queued: 0 },
    ]);
    expect(t.events('engine').some((e) => e.type === 'usage')).toBe(true);
  });
});
