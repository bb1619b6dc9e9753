/**
 * The scenario's fault injection at the HTTP level: 500s, dropped connections before and after
 * processing, answers that break the wire schema (each mode, both versions), the rate limit with and
 * without Retry-After, latency, and determinism from the seed.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Ping } from '../../../shared/api/wire-common';
import { WIRE } from '../../../shared/api/wire';
import { API_VERSIONS, type ApiVersion } from '../../../shared/api/vocabulary';
import { SCHEMA_BREAK_MODES } from '../../../main/sandbox/scenario';
import { startSandbox } from '../../../main/sandbox/server';
import {
  call,
  createAccount,
  expectErrorShape,
  goodWav,
  KEYS,
  parseWire,
  startTestSandbox,
  testConfig,
  upload,
  type Answer,
  type TestSandbox,
} from './helpers';

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(async () => {
  await t.sb.close();
});
afterEach(() => {
  t.sb.setScenario({ preset: 'fast' });
});

const usage13 = async () =>
  parseWire(WIRE['v1.3'].usage, await call(t.sb, 'v1.3', '/usage/recordings', { key: KEYS.active }));

/** True when the client's schema would refuse the answer (not JSON, or not the shape). */
const breaks = (schema: { safeParse(x: unknown): { success: boolean } }, a: Answer): boolean => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(a.text);
  } catch {
    return true;
  }
  return !schema.safeParse(parsed).success;
};

describe.each(API_VERSIONS)('%s', (version: ApiVersion) => {
  it('HTTP 500 before processing: InternalError with an empty message; an upload is neither stored nor charged', async () => {
    const account = await createAccount(t.sb, version);
    const before = await usage13();
    const recordings = t.sb.listRecordings().length;
    t.sb.setScenario({ faults: { getUsage: { http500: 1 }, upload: { http500: 1 }, ping: { http500: 1 } } });
    for (const a of [
      await call(t.sb, version, '/usage/recordings', { key: KEYS.active }),
      await upload(t.sb, version, KEYS.active, goodWav(), { account_id: account }),
      await call(t.sb, version, '/ping'),
    ]) {
      expect(a.status).toBe(500);
      expect(expectErrorShape(a, version)).toEqual({ type: 'InternalError', message: '' });
    }
    t.sb.setScenario({ preset: 'fast' });
    expect(await usage13()).toEqual(before);
    expect(t.sb.listRecordings().length).toBe(recordings);
    expect(t.sb.requestLog().filter((r) => r.fault === 'http_500').length).toBeGreaterThanOrEqual(3);
  });

  it('connection dropped before processing: no answer, nothing created', async () => {
    const orgBefore = await call(t.sb, 'v1.3', '/usage/recordings', { key: KEYS.active });
    const recordings = t.sb.listRecordings().length;
    const account = await createAccount(t.sb, version);
    t.sb.setScenario({
      faults: { createAccount: { dropBeforeProcessing: 1 }, upload: { dropBeforeProcessing: 1 } },
    });
    await expect(call(t.sb, version, '/accounts', { method: 'POST', key: KEYS.active })).rejects.toThrow();
    await expect(upload(t.sb, version, KEYS.active, goodWav(), { account_id: account })).rejects.toThrow();
    t.sb.setScenario({ preset: 'fast' });
    expect(t.sb.listRecordings().length).toBe(recordings);
    expect((await call(t.sb, 'v1.3', '/usage/recordings', { key: KEYS.active })).json).toEqual(
      orgBefore.json,
    );
    const dropped = t.sb.requestLog().filter((r) => r.fault === 'dropped_before_processing');
    expect(dropped.length).toBeGreaterThanOrEqual(2);
    expect(dropped.every((r) => r.status === null)).toBe(true);
  });

  it('upload processed then connection dropped: no answer, but the recording exists and was charged', async () => {
    const account = await createAccount(t.sb, version);
    const before = await usage13();
    const count12 = parseWire(
      WIRE['v1.2'].usage,
      await call(t.sb, 'v1.2', '/usage/recordings', { key: KEYS.active }),
    ).count;
    const recordings = t.sb.listRecordings().length;
    t.sb.setScenario({ faults: { upload: { dropAfterProcessing: 1 } } });
    await expect(upload(t.sb, version, KEYS.active, goodWav(), { account_id: account })).rejects.toThrow();
    t.sb.setScenario({ preset: 'fast' });
    const after = await usage13();
    expect(after.trial_remaining + after.included_remaining + after.purchased_remaining).toBe(
      before.trial_remaining + before.included_remaining + before.purchased_remaining - 1,
    );
    expect(
      parseWire(WIRE['v1.2'].usage, await call(t.sb, 'v1.2', '/usage/recordings', { key: KEYS.active }))
        .count,
    ).toBe(count12 + 1);
    const stored = t.sb.listRecordings();
    expect(stored.length).toBe(recordings + 1);
    const rec = stored[stored.length - 1]!;
    expect(rec.accountId).toBe(account);
    // The client can still fetch its results, if it learns the id.
    expect((await call(t.sb, version, `/recordings/${rec.id}/analysis`, { key: KEYS.active })).status).toBe(
      200,
    );
    expect(
      t.sb
        .requestLog()
        .filter((r) => r.fault === 'dropped_after_processing')
        .at(-1),
    ).toMatchObject({ endpoint: 'upload', status: null, fault: 'dropped_after_processing', orgId: 'demo' });
  });

  it.each(SCHEMA_BREAK_MODES)(
    'schema break "%s" on analysis retrieval really breaks the schema',
    async (mode) => {
      const account = await createAccount(t.sb, version);
      const up = await upload(t.sb, version, KEYS.active, goodWav(), {
        account_id: account,
        analysis: ['wellbeing', 'parkinsons'],
      });
      const id = (up.json as { recording_id: string }).recording_id;
      t.clock.advance(60_000);
      const good = await call(t.sb, version, `/recordings/${id}/analysis`, { key: KEYS.active });
      expect(breaks(WIRE[version].analysis, good)).toBe(false);
      t.sb.setScenario({ faults: { getAnalysis: { schemaBreak: 1, schemaBreakModes: [mode] } } });
      const bad = await call(t.sb, version, `/recordings/${id}/analysis`, { key: KEYS.active });
      expect(bad.status).toBe(200);
      expect(bad.headers.get('x-voicescope-simulated')).toBe('1');
      expect(breaks(WIRE[version].analysis, bad)).toBe(true);
      expect(bad.headers.get('content-type')).toBe(mode === 'html_body' ? 'text/html' : 'application/json');
      expect(t.sb.requestLog().at(-1)).toMatchObject({
        endpoint: 'getAnalysis',
        status: 200,
        fault: `schema_break:${mode}`,
      });
    },
  );

  it('schema breaks reach every endpoint; a mode that cannot apply leaves the answer intact', async () => {
    const account = await createAccount(t.sb, version);
    const all = { schemaBreak: 1 } as const;
    t.sb.setScenario({ faults: { ping: all, createAccount: all, upload: all, getUsage: all } });
    expect(breaks(Ping, await call(t.sb, version, '/ping'))).toBe(true);
    expect(
      breaks(
        WIRE[version].account,
        await call(t.sb, version, '/accounts', { method: 'POST', key: KEYS.active }),
      ),
    ).toBe(true);
    expect(
      breaks(
        WIRE[version].recording,
        await upload(t.sb, version, KEYS.active, goodWav(), { account_id: account }),
      ),
    ).toBe(true);
    expect(
      breaks(WIRE[version].usage, await call(t.sb, version, '/usage/recordings', { key: KEYS.active })),
    ).toBe(true);
    // Errors are never "broken".
    const e = await call(t.sb, version, '/usage/recordings', { key: 'vs-unknown-key-000' });
    expect(expectErrorShape(e, version).type).toBe('Unauthorized');

    t.sb.setScenario({ faults: { getUsage: { schemaBreak: 1, schemaBreakModes: ['unknown_status'] } } });
    const intact = await call(t.sb, version, '/usage/recordings', { key: KEYS.active });
    expect(breaks(WIRE[version].usage, intact)).toBe(false);
    expect(t.sb.requestLog().at(-1)!.fault).toBeNull();
  });
});

describe('rate limit (v1.3 upload and analysis retrieval only)', () => {
  it('429 RateLimitExceeded past maxRequests per window per key, with Retry-After when configured; the window resets', async () => {
    const account = await createAccount(t.sb);
    const up = await upload(t.sb, 'v1.3', KEYS.active, goodWav(), { account_id: account });
    const id = (up.json as { recording_id: string }).recording_id;
    t.sb.setScenario({ rateLimit: { maxRequests: 3, windowMs: 10_000, retryAfterSeconds: 7 } });
    const path = `/recordings/${id}/analysis`;
    expect((await call(t.sb, 'v1.3', path, { key: KEYS.active })).status).toBe(200);
    expect((await upload(t.sb, 'v1.3', KEYS.active, goodWav(), { account_id: account })).status).toBe(200);
    expect((await call(t.sb, 'v1.3', path, { key: KEYS.active })).status).toBe(200);
    const limited = await call(t.sb, 'v1.3', path, { key: KEYS.active });
    expect(limited.status).toBe(429);
    expect(expectErrorShape(limited, 'v1.3').type).toBe('RateLimitExceeded');
    expect(limited.headers.get('retry-after')).toBe('7');
    const limitedUpload = await upload(t.sb, 'v1.3', KEYS.active, goodWav(), { account_id: account });
    expect(limitedUpload.status).toBe(429);

    // Not limited: v1.2, other endpoints, other keys.
    expect((await call(t.sb, 'v1.2', path, { key: KEYS.active })).status).toBe(200);
    expect((await call(t.sb, 'v1.3', '/usage/recordings', { key: KEYS.active })).status).toBe(200);
    expect((await call(t.sb, 'v1.3', '/accounts', { method: 'POST', key: KEYS.active })).status).toBe(200);
    expect((await call(t.sb, 'v1.3', path, { key: KEYS.other })).status).toBe(404);

    t.clock.advance(10_000);
    expect((await call(t.sb, 'v1.3', path, { key: KEYS.active })).status).toBe(200);
  });

  it('no Retry-After header when retryAfterSeconds is not set', async () => {
    const account = await createAccount(t.sb);
    const id = (
      (await upload(t.sb, 'v1.3', KEYS.active, goodWav(), { account_id: account })).json as {
        recording_id: string;
      }
    ).recording_id;
    t.sb.setScenario({ rateLimit: { maxRequests: 1, windowMs: 60_000 } });
    expect((await call(t.sb, 'v1.3', `/recordings/${id}/analysis`, { key: KEYS.active })).status).toBe(200);
    const limited = await call(t.sb, 'v1.3', `/recordings/${id}/analysis`, { key: KEYS.active });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBeNull();
  });
});

describe('latency and determinism', () => {
  it('fixed latency delays the answer', async () => {
    t.sb.setScenario({ latency: { ping: { fixedMs: 150, jitterMs: 0 } } });
    const t0 = performance.now();
    expect((await call(t.sb, 'v1.3', '/ping')).status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(145);
  });

  it('the same seed replays the same faults', async () => {
    const run = async (): Promise<(number | string)[]> => {
      const sb = await startSandbox({
        port: 0,
        config: {
          ...testConfig(),
          scenario: { preset: 'fast', seed: 42, faults: { ping: { http500: 0.3, schemaBreak: 0.3 } } },
        },
      });
      try {
        const out: (number | string)[] = [];
        for (let i = 0; i < 30; i++) {
          const a = await call(sb, 'v1.3', '/ping');
          out.push(a.status === 200 && breaks(Ping, a) ? 'broken' : a.status);
        }
        return out;
      } finally {
        await sb.close();
      }
    };
    const [a, b] = [await run(), await run()];
    expect(a).toEqual(b);
    expect(new Set(a).size).toBe(3);
  });
});
