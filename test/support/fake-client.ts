/** An in-memory ApiClient for scheduler tests: records when each call was made and answers as scripted. */
import { apiError, type ApiError } from '../../shared/api/api-error';
import type { RecordingAnalysis, UploadOutcome, Usage } from '../../shared/api/domain';
import type { AnalysisType } from '../../shared/api/vocabulary';
import { ok } from '../../shared/result';
import type { ApiClient } from '../../main/api/client';

export interface FakeCall {
  readonly at: number;
  readonly endpoint: 'upload' | 'getAnalysis' | 'getUsage' | 'createAccount' | 'ping';
  readonly id?: string;
}

export interface FakeClient extends ApiClient {
  readonly calls: FakeCall[];
  /** Upload answers to give, in order; when empty, uploads are accepted. */
  readonly uploadScript: ('accept' | ApiError)[];
  /** Results complete this long after the first poll of a recording (ms); Infinity: never. */
  completeAfterMs: number;
}

const USAGE: Usage = {
  apiVersion: 'v1.3',
  uploadsRemaining: 1000,
  detail: {
    kind: 'credits',
    trialRemaining: 0,
    trialGranted: 0,
    includedRemaining: 1000,
    includedGranted: 1000,
    purchasedRemaining: 0,
    tier: null,
  },
};
const audio = {
  format: 'wav',
  sizeBytes: 1,
  sampleRateHz: 16_000,
  bitRateBps: 256_000,
  durationSeconds: 40,
  speechDurationSeconds: 35,
};

export const createFakeClient = (now: () => number): FakeClient => {
  const firstSeen = new Map<string, number>();
  let n = 0;
  const c: FakeClient = {
    calls: [],
    uploadScript: [],
    completeAfterMs: Infinity,
    profile: { baseUrl: 'http://fake.invalid', version: 'v1.3' },
    ping: async () => {
      c.calls.push({ at: now(), endpoint: 'ping' });
      return ok('pong');
    },
    createAccount: async () => {
      c.calls.push({ at: now(), endpoint: 'createAccount' });
      return ok({ account: { accountId: `acc-${++n}`, role: 'speaker' }, uncertainAttempts: 0 });
    },
    getUsage: async () => {
      c.calls.push({ at: now(), endpoint: 'getUsage' });
      return ok(USAGE);
    },
    upload: async (): Promise<UploadOutcome<ApiError>> => {
      c.calls.push({ at: now(), endpoint: 'upload' });
      const next = c.uploadScript.shift() ?? 'accept';
      if (next !== 'accept') return { status: 'rejected', error: next, attempts: 1 };
      return {
        status: 'accepted',
        attempts: 1,
        receipt: {
          apiVersion: 'v1.3',
          recordingId: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
          accountId: null,
          recordedAt: null,
          uploadedAt: new Date(now()).toISOString(),
          audio,
          source: 'simulated',
        },
      };
    },
    getAnalysis: async (recordingId: string, types?: readonly AnalysisType[]) => {
      const at = now();
      c.calls.push({ at, endpoint: 'getAnalysis', id: recordingId });
      if (!firstSeen.has(recordingId)) firstSeen.set(recordingId, at);
      const done = at - firstSeen.get(recordingId)! >= c.completeAfterMs;
      const result: RecordingAnalysis = {
        apiVersion: 'v1.3',
        recordingId,
        accountId: 'acc',
        recordedAt: '2026-01-01T00:00:00Z',
        uploadedAt: null,
        audio,
        source: 'simulated',
        outcomes: (types ?? ['wellbeing']).map((type) => ({
          type,
          status: done ? 'completed' : 'processing',
          values: done ? { wb_stress_level: 'low' } : {},
        })),
      };
      return ok(result);
    },
  };
  return c;
};

export const rateLimited = (retryAfterMs: number): ApiError =>
  apiError('RateLimited', 'upload', { status: 429, retryAfterMs });
export const unauthorized = (): ApiError => apiError('Unauthorized', 'upload', { status: 401 });
