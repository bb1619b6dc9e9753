/**
 * POST /recordings in both versions: the accepted Recording, every refusal in its order (400, 403,
 * 413), credits (bucket order, exhaustion) and the v1.2 count and limit, audio checks on generated
 * WAV, MP3, Ogg Opus and MP4 files, and the isolation limits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSIONS, type ApiVersion } from '../../../shared/api/vocabulary';
import { WIRE } from '../../../shared/api/wire';
import { MAX_UPLOAD_BODY_BYTES } from '../../../main/sandbox/server';
import { fmtChunk, makeMp3Header, makeMp4Header, makeOggHeader, riffFile } from '../../fixtures/audio';
import { makeLowBitRateMp3, makeMp3, makeMp4, makeOggOpus } from '../../fixtures/compressed-audio';
import {
  call,
  createAccount,
  expectErrorShape,
  goodWav,
  KEYS,
  parseWire,
  startTestSandbox,
  T0,
  upload,
  uploadBody,
  wav,
  type TestSandbox,
} from './helpers';

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(async () => {
  await t.sb.close();
});

const usage13 = async (key: string) =>
  parseWire(WIRE['v1.3'].usage, await call(t.sb, 'v1.3', '/usage/recordings', { key }));
const usage12 = async (key: string) =>
  parseWire(WIRE['v1.2'].usage, await call(t.sb, 'v1.2', '/usage/recordings', { key }));

describe.each(API_VERSIONS)('%s accepted upload', (version: ApiVersion) => {
  it('answers the Recording: every field, the simulated marks, the facts of the audio', async () => {
    const account = await createAccount(t.sb, version);
    const audio = goodWav();
    const a = await upload(t.sb, version, KEYS.active, audio, {
      account_id: account,
      recorded_at: '2026-03-02T09:15:00+01:00',
    });
    expect(a.status, a.text).toBe(200);
    const r = parseWire(WIRE[version].recording, a);
    expect(r).toMatchObject({
      account_id: account,
      recorded_at: '2026-03-02T09:15:00+01:00',
      uploaded_at: new Date(T0).toISOString(),
      audio_file_format: 'wav',
      audio_size_bytes: audio.byteLength,
      audio_sample_rate_hz: 16_000,
      audio_bit_rate_bps: 256_000,
    });
    // Every field present, in v1.2 too.
    for (const k of Object.keys(WIRE['v1.3'].recording.shape).filter((k) => k !== 'simulation'))
      expect(a.json).toHaveProperty(k);
    expect(r.audio_duration_seconds).toBeCloseTo(45, 3);
    expect(r.speech_duration_seconds).toBeGreaterThan(35);
    expect(r.speech_duration_seconds).toBeLessThan(45);
    expect(r.simulation).toEqual({
      simulated: true,
      generator: expect.stringMatching(/^voicescope-sandbox\//),
    });
    expect(a.headers.get('x-voicescope-simulated')).toBe('1');
  });
});

describe.each(API_VERSIONS)('%s request refusals', (version: ApiVersion) => {
  let account: string;
  beforeAll(async () => {
    account = await createAccount(t.sb, version);
  });

  const post = (body: string, headers: Record<string, string> = { 'Content-Type': 'application/json' }) =>
    call(t.sb, version, '/recordings', { method: 'POST', key: KEYS.active, body, headers });

  it('400 InvalidRequest: not JSON, no JSON content type, fields missing or wrong, each named', async () => {
    const cases: [string, Record<string, string> | undefined, RegExp][] = [
      ['{"account_id":', undefined, /not valid JSON/],
      ['[1,2]', undefined, /JSON object/],
      [uploadBody(goodWav(), { account_id: account }), { 'Content-Type': 'text/plain' }, /Content-Type/],
      [
        JSON.stringify({ recorded_at: '2026-03-02T09:15:00Z', analysis: ['wellbeing'], audio: '' }),
        undefined,
        /"account_id" is required/,
      ],
      [
        JSON.stringify({
          account_id: 'not-a-uuid',
          recorded_at: '2026-03-02T09:15:00Z',
          analysis: ['wellbeing'],
          audio: '',
        }),
        undefined,
        /"account_id" must be a UUID/,
      ],
      [
        JSON.stringify({ account_id: account, recorded_at: 'yesterday', analysis: ['wellbeing'], audio: '' }),
        undefined,
        /"recorded_at"/,
      ],
      [
        JSON.stringify({
          account_id: account,
          recorded_at: '2026-03-02T09:15:00',
          analysis: ['wellbeing'],
          audio: '',
        }),
        undefined,
        /"recorded_at"/,
      ],
      [
        JSON.stringify({ account_id: account, recorded_at: '2026-03-02T09:15:00Z', analysis: [], audio: '' }),
        undefined,
        /"analysis" must list at least one/,
      ],
      [
        JSON.stringify({
          account_id: account,
          recorded_at: '2026-03-02T09:15:00Z',
          analysis: ['wellbeing', 'voice'],
          audio: '',
        }),
        undefined,
        /"analysis\[1\]" must be one of/,
      ],
      [
        JSON.stringify({
          account_id: account,
          recorded_at: '2026-03-02T09:15:00Z',
          analysis: 'wellbeing',
          audio: '',
        }),
        undefined,
        /"analysis"/,
      ],
      [
        JSON.stringify({ account_id: account, recorded_at: '2026-03-02T09:15:00Z', analysis: ['wellbeing'] }),
        undefined,
        /"audio" is required/,
      ],
    ];
    for (const [body, headers, message] of cases) {
      const a = await post(body, headers);
      expect(a.status, body.slice(0, 80)).toBe(400);
      const e = expectErrorShape(a, version);
      expect(e.type).toBe('InvalidRequest');
      expect(e.message).toMatch(message);
    }
  });

  it(
    version === 'v1.2' ? 'refuses communication_coach (not a v1.2 type)' : 'accepts communication_coach',
    async () => {
      const a = await upload(t.sb, version, KEYS.active, goodWav(), {
        account_id: account,
        analysis: ['wellbeing', 'communication_coach'],
      });
      if (version === 'v1.2') {
        expect(a.status).toBe(400);
        const e = expectErrorShape(a, version);
        expect(e.type).toBe('InvalidRequest');
        expect(e.message).toMatch(/communication_coach is not an analysis type of v1\.2/);
      } else {
        expect(a.status).toBe(200);
      }
    },
  );

  it('400 InvalidAudio: Base64 that is not strict (line breaks, wrong alphabet, bad padding, stray bits)', async () => {
    const b64 = Buffer.from(goodWav()).toString('base64');
    for (const audio of [
      `${b64.slice(0, 76)}\n${b64.slice(76)}`,
      b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '') + '-_',
      `${b64}=`,
      'QUJDRA=',
      'QR==',
      `${b64.slice(0, 100)} ${b64.slice(100)}`,
    ]) {
      const a = await post(uploadBody(audio, { account_id: account }));
      expect(a.status).toBe(400);
      expect(expectErrorShape(a, version).type).toBe('InvalidAudio');
    }
  });

  it("400 AccountNotFound for an unknown account and for another organisation's account", async () => {
    const foreign = await createAccount(t.sb, version, KEYS.other);
    for (const id of ['5b8c0e4e-1111-4c2b-8e1f-0a1b2c3d4e5f', foreign]) {
      const a = await upload(t.sb, version, KEYS.active, goodWav(), { account_id: id });
      expect(a.status).toBe(400);
      expect(expectErrorShape(a, version).type).toBe('AccountNotFound');
    }
  });

  it('403 AnalysisNotEnabled names the types the organisation lacks', async () => {
    const limitedAccount = await createAccount(t.sb, version, KEYS.limited);
    const a = await upload(t.sb, version, KEYS.limited, goodWav(), {
      account_id: limitedAccount,
      analysis: ['wellbeing', 'parkinsons', 'alzheimers'],
    });
    expect(a.status).toBe(403);
    const e = expectErrorShape(a, version);
    expect(e.type).toBe('AnalysisNotEnabled');
    expect(e.message).toMatch(/parkinsons, alzheimers/);
    expect(
      (
        await upload(t.sb, version, KEYS.limited, goodWav(), {
          account_id: limitedAccount,
          analysis: ['wellbeing'],
        })
      ).status,
    ).toBe(200);
  });

  it('400 InvalidAudio "Unsupported format" for bytes of no supported container; nothing is charged', async () => {
    const before = await usage13(KEYS.active);
    for (const bytes of [
      new TextEncoder().encode('this is a text file, not audio '.repeat(100)),
      new Uint8Array(0),
      new Uint8Array(5000).fill(7),
    ]) {
      const a = await upload(t.sb, version, KEYS.active, bytes, { account_id: account });
      expect(a.status).toBe(400);
      const e = expectErrorShape(a, version);
      expect(e.type).toBe('InvalidAudio');
      expect(e.message).toMatch(/Unsupported format/);
    }
    expect(await usage13(KEYS.active)).toEqual(before);
  });

  it('400 UnsupportedAudio: stereo, sample rate below the minimum, bit rate below 32,000 bps', async () => {
    const cases: [Uint8Array, RegExp][] = [
      [wav({ seconds: 45, speechSeconds: 40, sampleRateHz: 16_000, channels: 2 }), /2 channels; only mono/],
      [
        wav({ seconds: 45, speechSeconds: 40, sampleRateHz: 6_000 }),
        /sample rate is 6,000 Hz; the minimum is 8,000 Hz/,
      ],
      [makeLowBitRateMp3(45), /bit rate is [78],\d{3} bps; the minimum is 32,000 bps/],
      [makeMp3({ seconds: 45, stereo: true }), /2 channels/],
      [makeOggOpus({ seconds: 45, channels: 2 }), /2 channels/],
      [makeMp4({ seconds: 45, channels: 2 }), /2 channels/],
    ];
    for (const [bytes, message] of cases) {
      const a = await upload(t.sb, version, KEYS.active, bytes, { account_id: account });
      expect(a.status).toBe(400);
      const e = expectErrorShape(a, version);
      expect(e.type).toBe('UnsupportedAudio');
      expect(e.message).toMatch(message);
    }
  });

  it('a container header without audio is 400 InvalidAudio; a WAV encoding the sandbox cannot decode is 400 UnsupportedAudio', async () => {
    for (const bytes of [
      makeMp3Header(),
      makeOggHeader(),
      makeMp4Header(),
      riffFile([fmtChunk({ formatTag: 1, channels: 1, sampleRateHz: 16_000, bitsPerSample: 16 })]),
    ]) {
      const a = await upload(t.sb, version, KEYS.active, bytes, { account_id: account });
      expect(a.status).toBe(400);
      expect(expectErrorShape(a, version).type).toBe('InvalidAudio');
    }
    const adpcm = riffFile([
      fmtChunk({ formatTag: 0x0011, channels: 1, sampleRateHz: 16_000, bitsPerSample: 4, blockAlign: 256 }),
      { id: 'data', data: new Uint8Array(640_000) },
    ]);
    const a = await upload(t.sb, version, KEYS.active, adpcm, { account_id: account });
    expect(a.status).toBe(400);
    const e = expectErrorShape(a, version);
    expect(e.type).toBe('UnsupportedAudio');
    expect(e.message).toMatch(/encoding is not supported/);
  });

  it('400 SpeechTooShort below 30 s of speech (no isolation)', async () => {
    const a = await upload(
      t.sb,
      version,
      KEYS.active,
      wav({ seconds: 45, speechSeconds: 15, sampleRateHz: 16_000 }),
      { account_id: account },
    );
    expect(a.status).toBe(400);
    const e = expectErrorShape(a, version);
    expect(e.type).toBe('SpeechTooShort');
    expect(e.message).toMatch(/at least 30 s/);
  });

  it('refusals come in the documented order', async () => {
    const text = new TextEncoder().encode('not audio at all, '.repeat(50));
    // An unknown account is reported before the audio is looked at.
    const a1 = await upload(t.sb, version, KEYS.active, text, {
      account_id: '5b8c0e4e-1111-4c2b-8e1f-0a1b2c3d4e5f',
    });
    expect(errorOf400(a1)).toBe('AccountNotFound');
    // Bad Base64 before the account.
    const a2 = await call(t.sb, version, '/recordings', {
      method: 'POST',
      key: KEYS.active,
      headers: { 'Content-Type': 'application/json' },
      body: uploadBody('***', { account_id: '5b8c0e4e-1111-4c2b-8e1f-0a1b2c3d4e5f' }),
    });
    expect(errorOf400(a2)).toBe('InvalidAudio');
  });

  it('MP3 and Ogg Opus frames that hold no sound decode to no speech: 400 SpeechTooShort at 0.0 s', async () => {
    for (const bytes of [makeMp3({ seconds: 40 }), makeOggOpus({ seconds: 40 })]) {
      const a = await upload(t.sb, version, KEYS.active, bytes, { account_id: account });
      expect(a.status, a.text).toBe(400);
      const e = expectErrorShape(a, version);
      expect(e.type).toBe('SpeechTooShort');
      expect(e.message).toMatch(/has 0\.0 s of speech/);
    }
  });

  it('an MP4 holding AAC, which the sandbox cannot decode, is taken by its container metadata, speech = 85 % of the duration', async () => {
    const a = await upload(t.sb, version, KEYS.active, makeMp4({ seconds: 40 }), { account_id: account });
    expect(a.status, a.text).toBe(200);
    const r = parseWire(WIRE[version].recording, a);
    expect(r.audio_file_format).toBe('mp4');
    expect(r.audio_duration_seconds).toBeCloseTo(40, 2);
    expect(r.speech_duration_seconds).toBeCloseTo(40 * 0.85, 2);
    expect(r.audio_bit_rate_bps).toBeGreaterThanOrEqual(32_000);
    expect(r.audio_sample_rate_hz).toBeGreaterThanOrEqual(8_000);
    // 85 % of 30 s is under the minimum.
    const short = await upload(t.sb, version, KEYS.active, makeMp4({ seconds: 30 }), { account_id: account });
    expect(expectErrorShape(short, version).type).toBe('SpeechTooShort');
  });
});

const errorOf400 = (a: { status: number; json: unknown }): string =>
  a.status === 400 ? String((a.json as { error: { type: string } }).error.type) : `HTTP ${a.status}`;

describe('413 for files over 50,000,000 bytes', () => {
  it('413 FileTooLarge when the decoded audio is 50,000,001 bytes', async () => {
    const account = await createAccount(t.sb);
    const audio = Buffer.alloc(50_000_001, 0x41).toString('base64');
    const a = await upload(t.sb, 'v1.3', KEYS.active, audio, { account_id: account });
    expect(a.status).toBe(413);
    const e = expectErrorShape(a, 'v1.3');
    expect(e.type).toBe('FileTooLarge');
    expect(e.message).toMatch(/50,000,001 bytes; the maximum is 50,000,000/);
  });

  it('413 as soon as a streamed body passes the cap, without waiting for the rest', async () => {
    // A chunked body that would never end, on a connection of its own (no kept-alive socket the server
    // may be closing): the answer must come while the body is still being sent.
    const http = await import('node:http');
    const chunk = Buffer.alloc(1024 * 1024, 0x41);
    const answer = await new Promise<{ status: number; sent: number; body: string }>((resolve, reject) => {
      let sent = 0;
      let answered = false;
      const req = http.request(`${t.sb.url}/v1.2/recordings`, {
        method: 'POST',
        agent: false,
        headers: { Authorization: `Bearer ${KEYS.active}`, 'Content-Type': 'application/json' },
      });
      req.on('response', (res) => {
        answered = true;
        req.end(); // the sandbox ends its answer once the body it is dropping has ended
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, sent, body: Buffer.concat(parts).toString('utf8') });
          req.destroy();
        });
      });
      req.on('error', (e) => {
        if (!answered) reject(e);
      });
      const sendMore = () => {
        while (!answered && sent <= 4 * MAX_UPLOAD_BODY_BYTES) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', sendMore);
        }
        if (!answered) req.end();
      };
      sendMore();
    });
    expect(answer.status).toBe(413);
    expect(answer.sent).toBeLessThan(2 * MAX_UPLOAD_BODY_BYTES);
    expect((JSON.parse(answer.body) as { error: { type: string } }).error.type).toBe('FileTooLarge');
  });

  it('413 from the declared Content-Length alone', async () => {
    const http = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        `${t.sb.url}/v1.3/recordings`,
        {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${KEYS.active}`,
            'Content-Type': 'application/json',
            'Content-Length': String(MAX_UPLOAD_BODY_BYTES + 1),
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
          req.destroy();
        },
      );
      req.on('error', reject);
      req.write('{"account_id":');
    });
    expect(status).toBe(413);
  });
});

describe('credits (v1.3) and the upload count (v1.2)', () => {
  it('consumes trial, then included, then purchased credits; refuses with 403 UploadLimitExceeded when exhausted; counts every upload', async () => {
    t.sb.upsertOrganisation({
      id: 'buckets',
      name: 'Buckets',
      apiKeys: ['vs-test-buckets-key'],
      credits: {
        trial_remaining: 2,
        trial_granted: 2,
        included_remaining: 1,
        included_granted: 5,
        purchased_remaining: 1,
        tier: null,
      },
      v12: { count: 0, limit: 100 },
    });
    const key = 'vs-test-buckets-key';
    const account = await createAccount(t.sb, 'v1.3', key);
    const seen: [number, number, number][] = [];
    for (let i = 0; i < 4; i++) {
      const a = await upload(t.sb, i % 2 ? 'v1.2' : 'v1.3', key, goodWav(), { account_id: account });
      expect(a.status, a.text).toBe(200);
      const u = await usage13(key);
      seen.push([u.trial_remaining, u.included_remaining, u.purchased_remaining]);
    }
    expect(seen).toEqual([
      [1, 1, 1],
      [0, 1, 1],
      [0, 0, 1],
      [0, 0, 0],
    ]);
    expect(await usage13(key)).toMatchObject({ trial_granted: 2, included_granted: 5, tier: null });
    const refused = await upload(t.sb, 'v1.3', key, goodWav(), { account_id: account });
    expect(refused.status).toBe(403);
    const e = expectErrorShape(refused, 'v1.3');
    expect(e.type).toBe('UploadLimitExceeded');
    expect(e.message).toMatch(/exhausted/);
    expect((await usage12(key)).count).toBe(4);
    // v1.2 gates on its count only: it still accepts, counting, with no credits left to consume.
    expect((await upload(t.sb, 'v1.2', key, goodWav(), { account_id: account })).status).toBe(200);
    expect(await usage12(key)).toEqual({ count: 5, limit: 100 });
    expect((await usage13(key)).purchased_remaining).toBe(0);
  });

  it('v1.2: 403 UploadLimitExceeded once count reaches limit; refused uploads are not counted; v1.3 still uploads on credits', async () => {
    t.sb.upsertOrganisation({
      id: 'counted',
      name: 'Counted',
      apiKeys: ['vs-test-counted-key'],
      v12: { count: 0, limit: 2 },
    });
    const key = 'vs-test-counted-key';
    const account = await createAccount(t.sb, 'v1.2', key);
    expect((await upload(t.sb, 'v1.2', key, goodWav(), { account_id: account })).status).toBe(200);
    expect((await upload(t.sb, 'v1.2', key, goodWav(), { account_id: account })).status).toBe(200);
    const refused = await upload(t.sb, 'v1.2', key, goodWav(), { account_id: account });
    expect(refused.status).toBe(403);
    expect(expectErrorShape(refused, 'v1.2').type).toBe('UploadLimitExceeded');
    expect(await usage12(key)).toEqual({ count: 2, limit: 2 });
    expect((await usage13(key)).trial_remaining).toBe(8);
    expect((await upload(t.sb, 'v1.3', key, goodWav(), { account_id: account })).status).toBe(200);
    expect(await usage12(key)).toEqual({ count: 3, limit: 2 });
  });

  it('refused uploads (bad audio, unknown account) consume nothing', async () => {
    t.sb.upsertOrganisation({ id: 'careful', name: 'Careful', apiKeys: ['vs-test-careful-key'] });
    const key = 'vs-test-careful-key';
    const account = await createAccount(t.sb, 'v1.3', key);
    const before = [await usage13(key), await usage12(key)];
    await upload(t.sb, 'v1.3', key, wav({ seconds: 45, speechSeconds: 10, sampleRateHz: 16_000 }), {
      account_id: account,
    });
    await upload(t.sb, 'v1.3', key, goodWav(), { account_id: '5b8c0e4e-1111-4c2b-8e1f-0a1b2c3d4e5f' });
    expect([await usage13(key), await usage12(key)]).toEqual(before);
  });

  it('creditsPerUpload is configurable and spans buckets', async () => {
    const { startSandbox } = await import('../../../main/sandbox/server');
    const sb = await startSandbox({
      port: 0,
      config: {
        organisations: [
          {
            id: 'x',
            name: 'X',
            apiKeys: ['vs-test-x-key-1'],
            credits: {
              trial_remaining: 1,
              trial_granted: 1,
              included_remaining: 2,
              included_granted: 2,
              purchased_remaining: 0,
              tier: 'basic',
            },
          },
        ],
        creditsPerUpload: 2,
        scenario: 'fast',
      },
    });
    try {
      const account = await createAccount(sb, 'v1.3', 'vs-test-x-key-1');
      expect((await upload(sb, 'v1.3', 'vs-test-x-key-1', goodWav(), { account_id: account })).status).toBe(
        200,
      );
      const u = parseWire(
        WIRE['v1.3'].usage,
        await call(sb, 'v1.3', '/usage/recordings', { key: 'vs-test-x-key-1' }),
      );
      expect([u.trial_remaining, u.included_remaining]).toEqual([0, 1]);
      const refused = await upload(sb, 'v1.3', 'vs-test-x-key-1', goodWav(), { account_id: account });
      expect(refused.status).toBe(403);
    } finally {
      await sb.close();
    }
  });
});

describe('isolate_oldest_speaker (v1.3)', () => {
  it("describes the retained speaker's audio: 55–90 % of the duration and speech, smaller size, same rates", async () => {
    const account = await createAccount(t.sb);
    const audio = wav({ seconds: 80, speechSeconds: 70, sampleRateHz: 16_000, seed: 5 });
    const plain = parseWire(
      WIRE['v1.3'].recording,
      await upload(t.sb, 'v1.3', KEYS.active, audio, { account_id: account }),
    );
    const a = await upload(t.sb, 'v1.3', KEYS.active, audio, {
      account_id: account,
      isolate_oldest_speaker: true,
    });
    expect(a.status, a.text).toBe(200);
    const iso = parseWire(WIRE['v1.3'].recording, a);
    const share = (x: number, of: number) => x / of;
    expect(share(iso.audio_duration_seconds, plain.audio_duration_seconds)).toBeGreaterThanOrEqual(
      0.55 - 1e-3,
    );
    expect(share(iso.audio_duration_seconds, plain.audio_duration_seconds)).toBeLessThanOrEqual(0.9 + 1e-3);
    expect(share(iso.speech_duration_seconds, plain.speech_duration_seconds)).toBeGreaterThanOrEqual(
      0.55 - 1e-3,
    );
    expect(share(iso.speech_duration_seconds, plain.speech_duration_seconds)).toBeLessThanOrEqual(0.9 + 1e-3);
    expect(iso.speech_duration_seconds).toBeLessThanOrEqual(iso.audio_duration_seconds);
    expect(iso.audio_size_bytes).toBeLessThan(plain.audio_size_bytes);
    expect(iso.audio_sample_rate_hz).toBe(plain.audio_sample_rate_hz);
    // Deterministic: the same file gives the same retained audio.
    const again = parseWire(
      WIRE['v1.3'].recording,
      await upload(t.sb, 'v1.3', KEYS.active, audio, { account_id: account, isolate_oldest_speaker: true }),
    );
    expect(again.speech_duration_seconds).toBe(iso.speech_duration_seconds);
  });

  it('400 RecordingTooLongForIsolation over 10 minutes; the same file is accepted without isolation', async () => {
    const account = await createAccount(t.sb);
    // AAC, which the sandbox does not decode: its speech is 85 % of the duration, so no 10 minutes are decoded.
    const long = makeMp4({ seconds: 601 });
    const a = await upload(t.sb, 'v1.3', KEYS.active, long, {
      account_id: account,
      isolate_oldest_speaker: true,
    });
    expect(a.status).toBe(400);
    const e = expectErrorShape(a, 'v1.3');
    expect(e.type).toBe('RecordingTooLongForIsolation');
    expect(e.message).toMatch(/10 minutes/);
    expect((await upload(t.sb, 'v1.3', KEYS.active, long, { account_id: account })).status).toBe(200);
  });

  it('400 SpeakerSpeechTooShort when the retained speaker has under 30 s of speech', async () => {
    const account = await createAccount(t.sb);
    const clip = makeMp4({ seconds: 36 }); // AAC: 30.6 s of speech (85 %); the retained speaker keeps at most 90 %
    expect((await upload(t.sb, 'v1.3', KEYS.active, clip, { account_id: account })).status).toBe(200);
    const a = await upload(t.sb, 'v1.3', KEYS.active, clip, {
      account_id: account,
      isolate_oldest_speaker: true,
    });
    expect(a.status).toBe(400);
    expect(expectErrorShape(a, 'v1.3').type).toBe('SpeakerSpeechTooShort');
  });

  it('isolate_oldest_speaker: false is a plain upload; v1.2 ignores the field', async () => {
    const account = await createAccount(t.sb);
    const clip = makeMp4({ seconds: 36 }); // AAC: 30.6 s of speech (85 %)
    expect(
      (await upload(t.sb, 'v1.3', KEYS.active, clip, { account_id: account, isolate_oldest_speaker: false }))
        .status,
    ).toBe(200);
    const v12 = await upload(t.sb, 'v1.2', KEYS.active, clip, {
      account_id: account,
      isolate_oldest_speaker: true,
    });
    expect(v12.status).toBe(200);
    expect(parseWire(WIRE['v1.2'].recording, v12).audio_duration_seconds).toBeCloseTo(36, 0);
  });

  it('a non-boolean isolate_oldest_speaker is 400 InvalidRequest', async () => {
    const account = await createAccount(t.sb);
    const body = JSON.parse(uploadBody(makeMp3({ seconds: 36 }), { account_id: account })) as Record<
      string,
      unknown
    >;
    const a = await call(t.sb, 'v1.3', '/recordings', {
      method: 'POST',
      key: KEYS.active,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...body, isolate_oldest_speaker: 'yes' }),
    });
    expect(a.status).toBe(400);
    expect(expectErrorShape(a, 'v1.3').message).toMatch(/isolate_oldest_speaker/);
  });
});

describe('sample-rate minimum from the scenario', () => {
  it('8 kHz is accepted by default and refused when the scenario asks for 16 kHz', async () => {
    const account = await createAccount(t.sb);
    const eightK = wav({ seconds: 45, speechSeconds: 40, sampleRateHz: 8_000 });
    expect((await upload(t.sb, 'v1.3', KEYS.active, eightK, { account_id: account })).status).toBe(200);
    t.sb.setScenario({ minSampleRateHz: 16_000 });
    try {
      const a = await upload(t.sb, 'v1.3', KEYS.active, eightK, { account_id: account });
      expect(a.status).toBe(400);
      expect(expectErrorShape(a, 'v1.3').message).toMatch(/8,000 Hz; the minimum is 16,000 Hz/);
    } finally {
      t.sb.setScenario({ minSampleRateHz: 8_000 });
    }
  });
});
