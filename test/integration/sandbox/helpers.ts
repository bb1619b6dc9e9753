/**
 * Shared helpers of the sandbox's HTTP-level tests: a sandbox on a free port with a fake clock, plain
 * `fetch` calls, and generated audio (cached, since several tests upload the same files).
 */
import type { z } from 'zod';
import type { ApiVersion } from '../../../shared/api/vocabulary';
import { WIRE } from '../../../shared/api/wire';
import { DEMO_API_KEY, type SandboxConfigInput } from '../../../main/sandbox/config';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../main/sandbox/server';
import { makeWav } from '../../fixtures/audio';

export const T0 = Date.parse('2026-03-02T10:00:00.000Z');

export interface Clock {
  now: () => number;
  advance: (ms: number) => void;
  set: (ms: number) => void;
}

export const fakeClock = (start = T0): Clock => {
  let t = start;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
    set: (ms) => {
      t = ms;
    },
  };
};

export interface TestSandbox {
  sb: Sandbox;
  clock: Clock;
}

/** Keys of the test configuration's organisations. */
export const KEYS = {
  active: DEMO_API_KEY,
  other: 'vs-test-other-org-key',
  suspended: 'vs-test-suspended-key',
  notProvisioned: 'vs-test-not-provisioned-key',
  limited: 'vs-test-limited-analyses-key',
} as const;

export const testConfig = (): SandboxConfigInput => ({
  organisations: [
    { id: 'demo', name: 'Demo organisation', apiKeys: [KEYS.active] },
    { id: 'other', name: 'Another organisation', apiKeys: [KEYS.other] },
    { id: 'suspended', name: 'Suspended organisation', apiKeys: [KEYS.suspended], access: 'suspended' },
    {
      id: 'unprovisioned',
      name: 'Not provisioned',
      apiKeys: [KEYS.notProvisioned],
      access: 'not_provisioned',
    },
    { id: 'limited', name: 'Wellbeing only', apiKeys: [KEYS.limited], enabledAnalyses: ['wellbeing'] },
  ],
  creditsPerUpload: 1,
  scenario: 'fast',
});

export const startTestSandbox = async (opts: Partial<SandboxOptions> = {}): Promise<TestSandbox> => {
  const clock = fakeClock();
  const sb = await startSandbox({ port: 0, config: testConfig(), now: clock.now, ...opts });
  return { sb, clock };
};

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
}

export interface CallOptions {
  method?: string;
  key?: string | null;
  body?: string | Uint8Array;
  headers?: Record<string, string>;
}

export const call = async (
  sb: Sandbox,
  version: string,
  path: string,
  opts: CallOptions = {},
): Promise<Answer> => {
  // One connection per call: none is left idle for the sandbox to close while the test builds its next
  // body (tens of megabytes, seconds on a loaded machine), which cut three loaded CI runs' uploads.
  const headers: Record<string, string> = { Connection: 'close', ...opts.headers };
  if (opts.key !== null && opts.key !== undefined) headers['Authorization'] = `Bearer ${opts.key}`;
  const res = await fetch(`${sb.url}/${version}${path}`, {
    method: opts.method ?? 'GET',
    headers,
    ...(opts.body !== undefined
      ? { body: typeof opts.body === 'string' ? opts.body : new Uint8Array(opts.body) }
      : {}),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
};

export const admin = async (
  sb: Sandbox,
  method: string,
  path: string,
  body?: unknown,
  token: string | null = sb.adminToken,
): Promise<Answer> => {
  const res = await fetch(`${sb.url}/_sandbox${path}`, {
    method,
    headers: {
      Connection: 'close', // as `call`: no idle connection left for a later call to meet closing
      ...(token !== null ? { 'X-Sandbox-Admin': token } : {}),
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
};

export const errorOf = (a: Answer): { type: string; message: string } => {
  const e = (a.json as { error?: { type?: unknown; message?: unknown } } | undefined)?.error;
  return { type: String(e?.type), message: String(e?.message) };
};

/** Parses with the client's schema for that version, throwing with the issues if it does not fit. */
export const parseWire = <S extends z.ZodType>(schema: S, a: Answer): z.infer<S> => {
  const r = schema.safeParse(a.json);
  if (!r.success)
    throw new Error(
      `answer does not fit the schema: ${JSON.stringify(r.error.issues)}\n${a.text.slice(0, 500)}`,
    );
  return r.data;
};

/** Every error answer: the version's Error schema, a non-empty type and JSON content type, and the simulated mark. */
export const expectErrorShape = (a: Answer, version: ApiVersion): { type: string; message: string } => {
  const parsed = WIRE[version].error.safeParse(a.json);
  if (!parsed.success) throw new Error(`not an error shape: ${a.text.slice(0, 300)}`);
  if (!(a.headers.get('content-type') ?? '').startsWith('application/json'))
    throw new Error(`content type ${a.headers.get('content-type')}`);
  if (a.headers.get('x-voicescope-simulated') !== '1') throw new Error('no simulated header');
  return errorOf(a);
};

export const createAccount = async (
  sb: Sandbox,
  version: ApiVersion = 'v1.3',
  key: string = KEYS.active,
): Promise<string> => {
  const a = await call(sb, version, '/accounts', {
    method: 'POST',
    key,
    ...(version === 'v1.2' ? { body: '{}', headers: { 'Content-Type': 'application/json' } } : {}),
  });
  if (a.status !== 200) throw new Error(`account creation failed: ${a.status} ${a.text}`);
  return (a.json as { account_id: string }).account_id;
};

export interface UploadFields {
  account_id: string;
  recorded_at?: string;
  analysis?: string[];
  isolate_oldest_speaker?: boolean;
}

export const uploadBody = (audio: Uint8Array | string, fields: UploadFields): string =>
  JSON.stringify({
    recorded_at: '2026-03-02T09:15:00Z',
    analysis: ['wellbeing', 'parkinsons', 'alzheimers'],
    ...fields,
    audio: typeof audio === 'string' ? audio : Buffer.from(audio).toString('base64'),
  });

export const upload = (
  sb: Sandbox,
  version: string,
  key: string,
  audio: Uint8Array | string,
  fields: UploadFields,
): Promise<Answer> =>
  call(sb, version, '/recordings', {
    method: 'POST',
    key,
    body: uploadBody(audio, fields),
    headers: { 'Content-Type': 'application/json' },
  });

const wavCache = new Map<string, Uint8Array>();

/** A generated WAV (test/fixtures/audio.ts), cached by its options. */
export const wav = (opts: Parameters<typeof makeWav>[0]): Uint8Array => {
  const k = JSON.stringify(opts);
  let w = wavCache.get(k);
  if (!w) {
    w = makeWav(opts);
    wavCache.set(k, w);
  }
  return w;
};

/** 45 s, 40 s of speech, 16 kHz mono: accepted everywhere. */
export const goodWav = (seed = 1): Uint8Array =>
  wav({ seconds: 45, speechSeconds: 40, sampleRateHz: 16_000, seed });

export const ANALYSIS_OF = (a: Answer) =>
  (a.json as { analysis: Record<string, { status: string } & Record<string, unknown>> }).analysis;
