import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient, type ExchangeEvent } from '../../../main/api/client';
import { bytesAudioSource } from '../../../main/api/upload-body';
import type { ApiVersion } from '../../../shared/api/vocabulary';
import { IDS, accountV13, analysisV13, recordingV13, usageV12, usageV13 } from '../../fixtures/wire-examples';
import { json, startScriptedServer, text, type ScriptedServer } from '../../support/scripted-server';

const KEY = 'sk-test-5f3c9a';
let srv: ScriptedServer;
let sleeps: number[];
let events: ExchangeEvent[];

const client = (version: ApiVersion = 'v1.3', extra: Record<string, unknown> = {}) =>
  createApiClient({
    profile: { baseUrl: srv.url, version, apiKey: KEY },
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    observer: (e) => events.push(e),
    ...extra,
  });

const audio = bytesAudioSource(new Uint8Array(3000).fill(7));
const uploadReq = {
  accountId: IDS.account,
  recordedAt: '2026-03-02T09:15:00Z',
  analyses: ['wellbeing', 'parkinsons'] as const,
  audio,
};
const err = (status: number, type: string, message = 'msg', headers?: Record<string, string>) =>
  json(status, { error: { type, message } }, headers);

beforeEach(async () => {
  srv = await startScriptedServer();
  sleeps = [];
  events = [];
});
afterEach(async () => {
  await srv.close();
});

describe('requests as the specification describes them', () => {
  it('ping sends no Authorization header; the others send the Bearer key', async () => {
    srv.script(json(200, { message: 'pong' }), json(200, usageV13));
    expect(await client().ping()).toEqual({ ok: true, value: 'pong' });
    await client().getUsage();
    expect(srv.received[0]!.url).toBe('/v1.3/ping');
    expect(srv.received[0]!.headers.authorization).toBeUndefined();
    expect(srv.received[1]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('POST /accounts has no body in v1.3 and an empty JSON object in v1.2', async () => {
    srv.script(json(200, accountV13), json(200, accountV13));
    await client('v1.3').createAccount();
    await client('v1.2').createAccount();
    expect(srv.received[0]!.bodyBytes).toBe(0);
    expect(srv.received[1]!.body).toBe('{}');
    expect(srv.received[1]!.headers['content-type']).toMatch(/application\/json/);
    expect(srv.received[1]!.url).toBe('/v1.2/accounts');
  });

  it('uploads carry the JSON fields and the Base64 audio with an exact Content-Length', async () => {
    srv.script(json(200, recordingV13));
    const out = await client('v1.3').upload({ ...uploadReq, isolateOldestSpeaker: true });
    expect(out.status).toBe('accepted');
    const r = srv.received[0]!;
    const body = JSON.parse(r.body);
    expect(body).toMatchObject({
      account_id: IDS.account,
      recorded_at: '2026-03-02T09:15:00Z',
      analysis: ['wellbeing', 'parkinsons'],
      isolate_oldest_speaker: true,
    });
    expect(Buffer.from(body.audio, 'base64')).toEqual(Buffer.alloc(3000, 7));
    expect(Number(r.headers['content-length'])).toBe(r.bodyBytes);
  });

  it('each upload opens a connection of its own, never an idle one a server may be closing', async () => {
    srv.script(json(200, usageV13), json(200, recordingV13), json(200, recordingV13), json(200, usageV13));
    const c = client('v1.3');
    await c.getUsage();
    await c.upload(uploadReq);
    await c.upload(uploadReq);
    await c.getUsage();
    const [read, up1, up2] = srv.received.map((r) => r.clientPort);
    expect(new Set([read, up1, up2]).size).toBe(3);
    expect(srv.received[1]!.headers.connection).toBe('close');
  });

  it('v1.2 uploads never carry isolate_oldest_speaker and refuse communication_coach locally', async () => {
    srv.script(json(200, {}), json(200, { recording_id: IDS.recording }));
    const noId = await client('v1.2').upload({ ...uploadReq, isolateOldestSpeaker: true });
    expect(noId.status).toBe('uncertain');
    await client('v1.2').upload(uploadReq);
    expect(JSON.parse(srv.received[1]!.body)).not.toHaveProperty('isolate_oldest_speaker');
    const cc = await client('v1.2').upload({ ...uploadReq, analyses: ['communication_coach'] as never });
    expect(cc).toMatchObject({ status: 'rejected', attempts: 0, error: { kind: 'BadRequest' } });
    expect(srv.received).toHaveLength(2);
  });

  it('getAnalysis asks for the chosen types and maps the answer to the domain', async () => {
    srv.script(json(200, analysisV13, { 'X-Voicescope-Simulated': '1' }));
    const res = await client().getAnalysis(IDS.recording, ['wellbeing', 'alzheimers']);
    expect(srv.received[0]!.url).toBe(
      `/v1.3/recordings/${IDS.recording}/analysis?analysis=wellbeing,alzheimers`,
    );
    expect(res.ok && res.value.source).toBe('simulated');
    expect(res.ok && res.value.outcomes[1]!.values['pd_volume']).toBe(-23);
  });

  it('usage of both versions', async () => {
    srv.script(json(200, usageV13), json(200, usageV12));
    expect((await client('v1.3').getUsage()).ok).toBe(true);
    const v12 = await client('v1.2').getUsage();
    expect(v12.ok && v12.value.uploadsRemaining).toBe(460);
  });
});

describe('errors become typed values', () => {
  it.each([
    [401, 'Unauthorized', 'getUsage', 'Unauthorized'],
    [403, 'Suspended', 'getUsage', 'Suspended'],
    [403, 'ApiNotProvisioned', 'getUsage', 'ApiNotProvisioned'],
    [404, 'NotFound', 'getAnalysis', 'NotFound'],
    [400, 'InvalidRequest', 'getAnalysis', 'BadRequest'],
  ] as const)('%i %s on %s → %s', async (status, type, endpoint, kind) => {
    srv.script(err(status, type, 'the service says so'));
    const c = client();
    const res = endpoint === 'getUsage' ? await c.getUsage() : await c.getAnalysis(IDS.recording);
    expect(res).toMatchObject({
      ok: false,
      error: { kind, status, serviceType: type, serviceMessage: 'the service says so' },
    });
    expect(srv.received).toHaveLength(1);
  });

  it.each([
    [403, 'Suspended', 'Suspended'],
    [403, 'ApiNotProvisioned', 'ApiNotProvisioned'],
    [403, 'AnalysisNotEnabled', 'AnalysisNotEnabled'],
    [403, 'SomethingElse', 'AnalysisNotEnabled'],
    [403, 'UploadLimitExceeded', 'UploadLimitExceeded'],
    [402, 'UploadLimitExceeded', 'UploadLimitExceeded'],
    [400, 'SpeakerSpeechTooShort', 'SpeakerSpeechTooShort'],
    [422, 'RecordingTooLongForIsolation', 'RecordingTooLongForIsolation'],
    [413, 'FileTooLarge', 'TooLarge'],
    [400, 'SpeechTooShort', 'BadRequest'],
    [401, 'Unauthorized', 'Unauthorized'],
  ] as const)('upload refused with %i %s → rejected %s, sent once', async (status, type, kind) => {
    srv.script(err(status, type));
    const out = await client().upload(uploadReq);
    expect(out).toMatchObject({ status: 'rejected', attempts: 1, error: { kind, serviceType: type } });
    expect(srv.received).toHaveLength(1);
  });

  it('v1.2 error bodies with missing members, and non-JSON error pages, keep the status', async () => {
    srv.script(
      json(401, {}),
      text(502, '<html>Bad gateway</html>'),
      text(502, ''),
      text(502, ''),
      text(502, ''),
    );
    expect(await client('v1.2').getUsage()).toMatchObject({
      ok: false,
      error: { kind: 'Unauthorized', serviceType: null },
    });
    expect(await client('v1.2').getUsage()).toMatchObject({
      ok: false,
      error: { kind: 'ServerError', status: 502 },
    });
  });

  // Issue 13 reversed this test: one odd value used to discard the whole answer; now it is kept and flagged.
  it('a 200 with one value of the wrong kind keeps it as received, flagged, and keeps everything else', async () => {
    const broken = structuredClone(analysisV13) as {
      analysis: { parkinsons: { indicators: { hnr: unknown } } };
    };
    broken.analysis.parkinsons.indicators.hnr = '17';
    srv.script(json(200, broken));
    const res = await client().getAnalysis(IDS.recording);
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    const pd = res.value.outcomes.find((o) => o.type === 'parkinsons')!;
    expect(pd.values['pd_hnr']).toBe('17');
    expect(pd.flags).toContainEqual(
      expect.objectContaining({
        code: 'number_expected',
        path: 'analysis.parkinsons.indicators.hnr',
        measures: ['pd_hnr'],
      }),
    );
    expect(res.value.outcomes.map((o) => o.type).sort()).toEqual(Object.keys(analysisV13.analysis).sort());
    expect(srv.received).toHaveLength(1);
  });

  it.each([
    ['truncated JSON', text(200, JSON.stringify(analysisV13).slice(0, 300))],
    ['an HTML page', text(200, '<html><body>Sign in to the hotel Wi-Fi</body></html>')],
    ['deeply nested garbage', text(200, '['.repeat(100_000) + ']'.repeat(100_000))],
  ])('%s is InvalidResponse, with the start of the answer kept for the event log', async (_, reply) => {
    srv.script(reply);
    const res = await client().getAnalysis(IDS.recording);
    expect(res).toMatchObject({ ok: false, error: { kind: 'InvalidResponse' } });
    if (!res.ok) expect(res.error.bodyExcerpt?.length).toBeGreaterThan(0);
  });

  // Issue 13 reversed this one too: 1e400 was InvalidResponse; it is now kept as "Infinity", flagged.
  it('a number too large for a double is kept as "Infinity" and flagged; the rest of the answer stands', async () => {
    srv.script(text(200, JSON.stringify(analysisV13).replace('"hnr":17', '"hnr":1e400')));
    const res = await client().getAnalysis(IDS.recording);
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    const pd = res.value.outcomes.find((o) => o.type === 'parkinsons')!;
    expect(pd.values['pd_hnr']).toBe('Infinity');
    expect(pd.flags?.map((f) => f.code)).toEqual(['number_not_finite']);
  });

  it('an answer larger than the cap is refused without reading it all', async () => {
    srv.script(text(200, 'x'.repeat(200_000)));
    const res = await client('v1.3', { maxResponseBytes: 10_000 }).getUsage();
    expect(res).toMatchObject({ ok: false, error: { kind: 'InvalidResponse' } });
  });

  it('a redirect is not followed (a captive portal or proxy) and is UnexpectedStatus', async () => {
    srv.script(text(302, '', { Location: 'http://example.invalid/login' }));
    expect(await client().getUsage()).toMatchObject({
      ok: false,
      error: { kind: 'UnexpectedStatus', status: 302 },
    });
  });
});

describe('retries: reads are retried, uploads never blindly', () => {
  it('GET is retried after 500 and 503 with backoff, then succeeds', async () => {
    srv.script(err(500, 'InternalError'), text(503, ''), json(200, usageV13));
    const res = await client().getUsage();
    expect(res.ok).toBe(true);
    expect(srv.received).toHaveLength(3);
    expect(sleeps).toEqual([375, 750]);
    expect(events.map((e) => e.status)).toEqual([500, 503, 200]);
  });

  it('GET gives up after four attempts with the last typed error', async () => {
    srv.script(...Array.from({ length: 5 }, () => err(500, 'InternalError')));
    expect(await client().getUsage()).toMatchObject({ ok: false, error: { kind: 'ServerError' } });
    expect(srv.received).toHaveLength(4);
  });

  it('429 with Retry-After is waited for exactly; too long a wait is handed back as RateLimited', async () => {
    srv.script(err(429, 'RateLimitExceeded', 'slow down', { 'Retry-After': '3' }), json(200, analysisV13));
    expect((await client().getAnalysis(IDS.recording)).ok).toBe(true);
    expect(sleeps).toEqual([3000]);
    srv.script(err(429, 'RateLimitExceeded', 'slow down', { 'Retry-After': '600' }));
    expect(await client().getAnalysis(IDS.recording)).toMatchObject({
      ok: false,
      error: { kind: 'RateLimited', retryAfterMs: 600_000 },
    });
  });

  it('413 is never retried (ky would)', async () => {
    srv.script(err(413, 'FileTooLarge', 'too big', { 'Retry-After': '1' }));
    expect(await client().upload(uploadReq)).toMatchObject({
      status: 'rejected',
      error: { kind: 'TooLarge' },
    });
    expect(srv.received).toHaveLength(1);
  });

  it('upload answered 500 after the body arrived is uncertain and is not repeated', async () => {
    srv.script(err(500, 'InternalError', ''), json(200, recordingV13));
    const out = await client().upload(uploadReq);
    expect(out).toMatchObject({ status: 'uncertain', attempts: 1, error: { kind: 'ServerError' } });
    expect(srv.received).toHaveLength(1);
  });

  it('upload whose connection drops after the body was sent is uncertain and is not repeated', async () => {
    srv.script({ kind: 'drop' }, json(200, recordingV13));
    const out = await client().upload(uploadReq);
    expect(out).toMatchObject({ status: 'uncertain', attempts: 1, error: { kind: 'NetworkError' } });
    expect(srv.received).toHaveLength(1);
    expect(events[0]!.bytesSent).toBeGreaterThan(4000);
  });

  it('upload with no answer in time is uncertain (Timeout) and is not repeated', async () => {
    srv.script({ kind: 'hang' });
    const out = await client('v1.3', { uploadTimeout: { baseMs: 300, minBytesPerSecond: 1e9 } }).upload(
      uploadReq,
    );
    expect(out).toMatchObject({ status: 'uncertain', error: { kind: 'Timeout' } });
    expect(srv.received).toHaveLength(1);
  });

  it('upload answered 200 with an unreadable body is uncertain', async () => {
    srv.script(text(200, '{"recording_id": "3f2b'));
    expect(await client().upload(uploadReq)).toMatchObject({
      status: 'uncertain',
      error: { kind: 'InvalidResponse' },
    });
  });

  it('upload refused by the rate limiter (429) is retried, and succeeds on the third attempt', async () => {
    srv.script(
      err(429, 'RateLimitExceeded'),
      err(429, 'RateLimitExceeded', 'x', { 'Retry-After': '2' }),
      json(200, recordingV13),
    );
    const out = await client().upload(uploadReq);
    expect(out).toMatchObject({ status: 'accepted', attempts: 3 });
    expect(srv.received).toHaveLength(3);
    expect(sleeps).toEqual([375, 2000]);
    for (const r of srv.received) expect(r.bodyBytes).toBe(srv.received[0]!.bodyBytes);
  });

  it('upload to a closed port (nothing sent) is retried, then rejected as NetworkError', async () => {
    const closedUrl = srv.url;
    await srv.close();
    const c = createApiClient({
      profile: { baseUrl: closedUrl, version: 'v1.3', apiKey: KEY },
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      random: () => 0.5,
    });
    const out = await c.upload(uploadReq);
    expect(out).toMatchObject({ status: 'rejected', attempts: 3, error: { kind: 'NetworkError' } });
    srv = await startScriptedServer();
  });

  it('POST /accounts after an ambiguous 500 is not repeated: the outcome is unknown', async () => {
    srv.script(err(500, 'InternalError'), json(200, accountV13));
    expect(await client().createAccount()).toMatchObject({
      ok: false,
      error: { kind: 'ServerError', outcomeUnknown: true },
    });
    expect(srv.received).toHaveLength(1);
  });

  it('POST /accounts refused for certain (401) says the outcome is known', async () => {
    srv.script(err(401, 'Unauthorized'));
    expect(await client().createAccount()).toMatchObject({
      ok: false,
      error: { kind: 'Unauthorized', outcomeUnknown: false },
    });
  });

  it('v1.2 account answer without an account_id is InvalidResponse', async () => {
    srv.script(json(200, { organisation_role: 'speaker' }), json(200, {}));
    expect(await client('v1.2').createAccount()).toMatchObject({
      ok: false,
      error: { kind: 'InvalidResponse', path: 'account_id' },
    });
  });
});

describe('what leaves the client', () => {
  it('the event log sees endpoints, statuses and timings, never the key or audio', async () => {
    srv.script(json(200, recordingV13), err(401, 'Unauthorized'));
    await client().upload(uploadReq);
    await client().getUsage();
    const dump = JSON.stringify(events);
    expect(dump).not.toContain(KEY);
    expect(dump).not.toContain(Buffer.alloc(3000, 7).toString('base64').slice(0, 40));
    expect(events.map((e) => [e.endpoint, e.status])).toEqual([
      ['upload', 200],
      ['getUsage', 401],
    ]);
  });
});
