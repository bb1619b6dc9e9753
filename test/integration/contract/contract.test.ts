/**
 * Contract tests: the API client against the sandbox service, row by row through the specification's
 * endpoint, error and limit tables, in both versions. Each test names the spec row it checks.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../../main/api/client';
import { bytesAudioSource } from '../../../main/api/upload-body';
import { startSandbox, type Sandbox } from '../../../main/sandbox/server';
import type { OrganisationInput } from '../../../main/sandbox/config';
import { measuresOf } from '../../../shared/api/measures';
import { analysisTypesFor, type AnalysisType, type ApiVersion } from '../../../shared/api/vocabulary';
import { makeWav } from '../../fixtures/audio';

const KEY = 'contract-key-active-0001';
const T0 = Date.UTC(2026, 2, 2, 9, 0, 0);
let clock = T0;
let sandbox: Sandbox;

const org = (patch: Partial<OrganisationInput> = {}): OrganisationInput => ({
  id: 'lab',
  name: 'Speech lab',
  apiKeys: [KEY],
  access: 'active',
  credits: {
    trial_remaining: 2,
    trial_granted: 2,
    included_remaining: 3,
    included_granted: 3,
    purchased_remaining: 5,
    tier: 'research',
  },
  v12: { count: 0, limit: 1000 },
  ...patch,
});

const client = (version: ApiVersion, apiKey = KEY): ApiClient =>
  createApiClient({
    profile: { baseUrl: sandbox.url, version, apiKey },
    sleep: async () => {},
    random: () => 0.5,
  });

// Generated once: 60 s with 45 s of speech (accepted), 60 s with 20 s of speech (too little), a stereo file.
const SPEECH = makeWav({ seconds: 60, speechSeconds: 45, sampleRateHz: 16_000, seed: 7 });
const LITTLE_SPEECH = makeWav({ seconds: 60, speechSeconds: 20, sampleRateHz: 16_000, seed: 8 });
const STEREO = makeWav({ seconds: 40, speechSeconds: 35, sampleRateHz: 16_000, channels: 2, seed: 9 });

const upload = (
  c: ApiClient,
  accountId: string,
  bytes: Uint8Array,
  analyses?: readonly AnalysisType[],
  isolate?: boolean,
) =>
  c.upload({
    accountId,
    recordedAt: '2026-03-01T08:30:00Z',
    analyses: analyses ?? analysisTypesFor(c.profile.version),
    audio: bytesAudioSource(bytes),
    ...(isolate !== undefined ? { isolateOldestSpeaker: isolate } : {}),
  });

/**
 * An account for a test whose subject is another call. Asked a second time only after a connection that
 * failed without an answer: on a machine loaded by the whole suite that happened once in a CI run (a
 * sandbox account costs nothing; the client itself never sends an account request twice).
 */
const newAccount = async (c: ApiClient): Promise<string> => {
  let r = await c.createAccount();
  if (!r.ok && r.error.kind === 'NetworkError') r = await c.createAccount();
  if (!r.ok) throw new Error(`account: ${r.error.kind} ${r.error.detail ?? ''}`);
  return r.value.account.accountId;
};

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    now: () => clock,
    config: { organisations: [org()], scenario: 'fast' },
  });
});
afterAll(async () => {
  await sandbox.close();
});
beforeEach(() => {
  clock = T0;
  sandbox.upsertOrganisation(org());
  sandbox.setScenario({ preset: 'fast' });
});

describe.each(['v1.3', 'v1.2'] as const)('%s', (v) => {
  describe('GET /ping', () => {
    it('200 { message } without Authorization', async () => {
      const r = await client(v, 'no-such-key-at-all').ping();
      expect(r.ok && typeof r.value).toBe('string');
    });
  });

  describe('POST /accounts', () => {
    it('200 Account with a uuid and role speaker', async () => {
      const r = await client(v).createAccount();
      expect(r).toMatchObject({ ok: true, value: { uncertainAttempts: 0, account: { role: 'speaker' } } });
      expect(r.ok && r.value.account.accountId).toMatch(/^[0-9a-f-]{36}$/);
    });
    it('401 for an unknown key', async () =>
      expect(await client(v, 'unknown-key-0000').createAccount()).toMatchObject({
        ok: false,
        error: { kind: 'Unauthorized', status: 401 },
      }));
    it('403 Suspended for a suspended organisation', async () => {
      sandbox.upsertOrganisation(org({ access: 'suspended' }));
      expect(await client(v).createAccount()).toMatchObject({
        ok: false,
        error: { kind: 'Suspended', status: 403 },
      });
    });
    it('500: not repeated (the service may have created the account), ServerError with an unknown outcome', async () => {
      sandbox.setScenario({ preset: 'fast', faults: { createAccount: { http500: 1 } } });
      const sent = () => sandbox.requestLog().filter((r) => r.endpoint === 'createAccount').length;
      const before = sent();
      expect(await client(v).createAccount()).toMatchObject({
        ok: false,
        error: { kind: 'ServerError', status: 500, outcomeUnknown: true },
      });
      expect(sent() - before).toBe(1);
    });
  });

  describe('POST /recordings', () => {
    it('200 Recording, marked simulated, echoing recorded_at', async () => {
      const c = client(v);
      const out = await upload(c, await newAccount(c), SPEECH);
      expect(out.status).toBe('accepted');
      if (out.status !== 'accepted') return;
      expect(out.receipt).toMatchObject({
        apiVersion: v,
        source: 'simulated',
        recordedAt: '2026-03-01T08:30:00Z',
      });
      expect(out.receipt.audio).toMatchObject({
        format: 'wav',
        sampleRateHz: 16_000,
        sizeBytes: SPEECH.byteLength,
      });
      expect(out.receipt.audio.durationSeconds).toBeCloseTo(60, 0);
      expect(out.receipt.audio.speechDurationSeconds).toBeGreaterThan(30);
    });
    it('401 for an unknown key, sent once', async () => {
      const out = await upload(client(v, 'unknown-key-0000'), '7d9e6f5a-1b2c-4d3e-9f8a-7b6c5d4e3f2a', SPEECH);
      expect(out).toMatchObject({ status: 'rejected', attempts: 1, error: { kind: 'Unauthorized' } });
    });
    it('403 Suspended', async () => {
      const c = client(v);
      const acc = await newAccount(c);
      sandbox.upsertOrganisation(org({ access: 'suspended' }));
      expect(await upload(c, acc, SPEECH)).toMatchObject({
        status: 'rejected',
        error: { kind: 'Suspended' },
      });
    });
    it('403 requested analysis not enabled', async () => {
      const c = client(v);
      const acc = await newAccount(c);
      sandbox.upsertOrganisation(org({ enabledAnalyses: ['wellbeing'] }));
      expect(await upload(c, acc, SPEECH, ['wellbeing', 'parkinsons'])).toMatchObject({
        status: 'rejected',
        error: { kind: 'AnalysisNotEnabled', status: 403 },
      });
      expect((await upload(c, acc, SPEECH, ['wellbeing'])).status).toBe('accepted');
    });
    it('400 with under 30 seconds of speech', async () => {
      const c = client(v);
      expect(await upload(c, await newAccount(c), LITTLE_SPEECH)).toMatchObject({
        status: 'rejected',
        error: { status: 400 },
      });
    });
    it('400 for a stereo file (channels: 1)', async () => {
      const c = client(v);
      expect(await upload(c, await newAccount(c), STEREO)).toMatchObject({
        status: 'rejected',
        error: { kind: 'BadRequest', status: 400 },
      });
    });
    it('400 for bytes that are not audio in an allowed format', async () => {
      const c = client(v);
      expect(
        await upload(c, await newAccount(c), new TextEncoder().encode('%PDF-1.7 not audio'.repeat(100))),
      ).toMatchObject({ status: 'rejected', error: { status: 400 } });
    });
    it('413 above 50 MB, never retried', async () => {
      const c = client(v);
      const big = new Uint8Array(50_000_001);
      big.set(SPEECH.subarray(0, 44));
      expect(await upload(c, await newAccount(c), big)).toMatchObject({
        status: 'rejected',
        attempts: 1,
        error: { kind: 'TooLarge', status: 413 },
      });
    });
    it('500 after the body arrived: uncertain, sent once', async () => {
      const c = client(v);
      const acc = await newAccount(c);
      sandbox.setScenario({ preset: 'fast', faults: { upload: { http500: 1 } } });
      expect(await upload(c, acc, SPEECH)).toMatchObject({
        status: 'uncertain',
        attempts: 1,
        error: { kind: 'ServerError' },
      });
    });
    it('accepted then connection lost: uncertain, and the service did charge it', async () => {
      const c = client(v);
      const acc = await newAccount(c);
      const before = await c.getUsage();
      sandbox.setScenario({ preset: 'fast', faults: { upload: { dropAfterProcessing: 1 } } });
      expect(await upload(c, acc, SPEECH)).toMatchObject({
        status: 'uncertain',
        attempts: 1,
        error: { kind: 'NetworkError' },
      });
      sandbox.setScenario({ preset: 'fast' });
      const after = await c.getUsage();
      expect(before.ok && after.ok && before.value.uploadsRemaining - after.value.uploadsRemaining).toBe(1);
    });
  });

  describe('GET /recordings/{id}/analysis', () => {
    it('processing until done, then completed with every measure of every requested type', async () => {
      const c = client(v);
      const out = await upload(c, await newAccount(c), SPEECH);
      if (out.status !== 'accepted') throw new Error(out.status);
      const early = await c.getAnalysis(out.receipt.recordingId);
      expect(early.ok && early.value.outcomes.map((o) => o.status)).toEqual(
        analysisTypesFor(v).map(() => 'processing'),
      );
      clock += 5 * 60_000;
      const done = await c.getAnalysis(out.receipt.recordingId);
      expect(done.ok).toBe(true);
      if (!done.ok) return;
      expect(done.value.source).toBe('simulated');
      for (const o of done.value.outcomes) {
        expect(o.status).toBe('completed');
        // Unavailable values may be left out, but never most of them.
        expect(Object.keys(o.values).length).toBeGreaterThan(measuresOf(o.type).length / 2);
      }
    });
    it('types not requested are not_requested; the analysis filter narrows the answer', async () => {
      const c = client(v);
      const out = await upload(c, await newAccount(c), SPEECH, ['wellbeing']);
      if (out.status !== 'accepted') throw new Error(out.status);
      const all = await c.getAnalysis(out.receipt.recordingId);
      expect(
        all.ok &&
          all.value.outcomes.filter((o) => o.type !== 'wellbeing').every((o) => o.status === 'not_requested'),
      ).toBe(true);
      const one = await c.getAnalysis(out.receipt.recordingId, ['wellbeing']);
      expect(one.ok && one.value.outcomes.map((o) => o.type)).toEqual(['wellbeing']);
    });
    it('404 for an unknown recording', async () =>
      expect(await client(v).getAnalysis('00000000-0000-4000-8000-000000000000')).toMatchObject({
        ok: false,
        error: { kind: 'NotFound', status: 404 },
      }));
    it('401 and 403 Suspended', async () => {
      expect(
        await client(v, 'unknown-key-0000').getAnalysis('00000000-0000-4000-8000-000000000000'),
      ).toMatchObject({ ok: false, error: { kind: 'Unauthorized' } });
      sandbox.upsertOrganisation(org({ access: 'suspended' }));
      expect(await client(v).getAnalysis('00000000-0000-4000-8000-000000000000')).toMatchObject({
        ok: false,
        error: { kind: 'Suspended' },
      });
    });
    it('500 is retried, four attempts in all', async () => {
      sandbox.setScenario({ preset: 'fast', faults: { getAnalysis: { http500: 1 } } });
      sandbox.clearLog();
      expect(await client(v).getAnalysis('00000000-0000-4000-8000-000000000000')).toMatchObject({
        ok: false,
        error: { kind: 'ServerError' },
      });
      expect(sandbox.requestLog().filter((r) => r.endpoint === 'getAnalysis').length).toBe(4);
    });
  });

  describe('GET /usage/recordings', () => {
    it("200 in the version's shape", async () => {
      const r = await client(v).getUsage();
      expect(r.ok && r.value.detail.kind).toBe(v === 'v1.3' ? 'credits' : 'upload_count');
    });
    it('401 and 403 Suspended', async () => {
      expect(await client(v, 'unknown-key-0000').getUsage()).toMatchObject({
        ok: false,
        error: { kind: 'Unauthorized' },
      });
      sandbox.upsertOrganisation(org({ access: 'suspended' }));
      expect(await client(v).getUsage()).toMatchObject({ ok: false, error: { kind: 'Suspended' } });
    });
  });
});

describe('v1.3 only', () => {
  it('403 ApiNotProvisioned on upload and usage; v1.2 is not gated by provisioning', async () => {
    const c = client('v1.3');
    const acc = await newAccount(c);
    sandbox.upsertOrganisation(org({ access: 'not_provisioned' }));
    expect(await upload(c, acc, SPEECH)).toMatchObject({
      status: 'rejected',
      error: { kind: 'ApiNotProvisioned', status: 403 },
    });
    expect(await c.getUsage()).toMatchObject({ ok: false, error: { kind: 'ApiNotProvisioned' } });
    expect((await client('v1.2').getUsage()).ok).toBe(true);
  });

  it('credits are consumed from trial, then included, then purchased; exhausted → UploadLimitExceeded', async () => {
    const c = client('v1.3');
    const acc = await newAccount(c);
    const remaining: number[][] = [];
    for (let i = 0; i < 10; i++) {
      expect((await upload(c, acc, SPEECH, ['wellbeing'])).status).toBe('accepted');
      const u = await c.getUsage();
      if (u.ok && u.value.detail.kind === 'credits')
        remaining.push([
          u.value.detail.trialRemaining,
          u.value.detail.includedRemaining,
          u.value.detail.purchasedRemaining,
        ]);
    }
    expect(remaining.slice(0, 3)).toEqual([
      [1, 3, 5],
      [0, 3, 5],
      [0, 2, 5],
    ]);
    expect(remaining.at(-1)).toEqual([0, 0, 0]);
    expect(await upload(c, acc, SPEECH, ['wellbeing'])).toMatchObject({
      status: 'rejected',
      error: { kind: 'UploadLimitExceeded' },
    });
  });

  it('429 from the rate limiter: the client waits and retries an upload, then reports RateLimited with the wait', async () => {
    const c = client('v1.3');
    const acc = await newAccount(c);
    sandbox.setScenario({
      preset: 'fast',
      rateLimit: { maxRequests: 1, windowMs: 3_600_000, retryAfterSeconds: 3600 },
    });
    expect((await upload(c, acc, SPEECH, ['wellbeing'])).status).toBe('accepted');
    expect(await upload(c, acc, SPEECH, ['wellbeing'])).toMatchObject({
      status: 'rejected',
      error: { kind: 'RateLimited', retryAfterMs: 3_600_000 },
    });
    expect(await c.getAnalysis('00000000-0000-4000-8000-000000000000')).toMatchObject({
      ok: false,
      error: { kind: 'RateLimited' },
    });
    expect(await client('v1.2').getAnalysis('00000000-0000-4000-8000-000000000000')).toMatchObject({
      ok: false,
      error: { kind: 'NotFound' },
    });
  });

  it('isolate_oldest_speaker: over 10 minutes → RecordingTooLongForIsolation', async () => {
    const c = client('v1.3');
    const long = makeWav({ seconds: 601, speechSeconds: 400, sampleRateHz: 8_000, seed: 3 });
    expect(await upload(c, await newAccount(c), long, ['wellbeing'], true)).toMatchObject({
      status: 'rejected',
      error: { kind: 'RecordingTooLongForIsolation' },
    });
  });

  it('isolate_oldest_speaker: retained speaker under 30 s → SpeakerSpeechTooShort; the Recording describes the retained audio', async () => {
    const c = client('v1.3');
    const acc = await newAccount(c);
    const barely = makeWav({ seconds: 40, speechSeconds: 33, sampleRateHz: 16_000, seed: 4 });
    expect(await upload(c, acc, barely, ['wellbeing'], true)).toMatchObject({
      status: 'rejected',
      error: { kind: 'SpeakerSpeechTooShort' },
    });
    const plenty = makeWav({ seconds: 120, speechSeconds: 100, sampleRateHz: 16_000, seed: 5 });
    const out = await upload(c, acc, plenty, ['wellbeing'], true);
    expect(out.status).toBe('accepted');
    if (out.status === 'accepted') expect(out.receipt.audio.durationSeconds!).toBeLessThan(120);
  });

  it('communication_coach results exist only in v1.3', async () => {
    const c = client('v1.3');
    const out = await upload(c, await newAccount(c), SPEECH, ['communication_coach']);
    if (out.status !== 'accepted') throw new Error(out.status);
    clock += 5 * 60_000;
    const r = await c.getAnalysis(out.receipt.recordingId);
    const cc = r.ok ? r.value.outcomes.find((o) => o.type === 'communication_coach') : undefined;
    expect(cc && Object.keys(cc.values).sort()).toEqual(
      measuresOf('communication_coach')
        .map((m) => m.key)
        .sort(),
    );
    const v12 = await client('v1.2').getAnalysis(out.receipt.recordingId);
    expect(v12.ok && v12.value.outcomes.map((o) => o.type)).toEqual([
      'wellbeing',
      'parkinsons',
      'alzheimers',
    ]);
  });
});

describe('v1.2 only', () => {
  it('uploads count against the limit; past it → UploadLimitExceeded', async () => {
    sandbox.upsertOrganisation(org({ v12: { count: 0, limit: 2 } }));
    const c = client('v1.2');
    const acc = await newAccount(c);
    expect((await upload(c, acc, SPEECH)).status).toBe('accepted');
    expect((await upload(c, acc, SPEECH)).status).toBe('accepted');
    const u = await c.getUsage();
    expect(u.ok && u.value.detail).toEqual({ kind: 'upload_count', used: 2, limit: 2 });
    expect(await upload(c, acc, SPEECH)).toMatchObject({
      status: 'rejected',
      error: { kind: 'UploadLimitExceeded' },
    });
  });
});
