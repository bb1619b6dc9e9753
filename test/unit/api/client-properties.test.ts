/**
 * Properties of the API client under arbitrary and adversarial answers, on a real loopback socket, in
 * both API versions (fast-check, seeded: FC_SEED replays a run, FC_RUNS_SCALE scales the counts):
 *
 * 1. The client never throws: every call resolves to a Result (or an upload outcome) whose error is a
 *    well-formed ApiError.
 * 2. An answer that cannot be read at all (truncated, not JSON, too large, not an object, `metadata` or
 *    `analysis` not objects, an account without an id, usage without its numbers, another status, a
 *    broken connection) yields no value. Every other answer is read: values of the
 *    wrong type, unknown enumeration values and 1e400 are kept as received (and flagged: see
 *    tolerant-reading.test.ts for the flags), where they used to discard the whole answer.
 * 3. A value the client returns agrees exactly with what the body said (as received; a rating that
 *    differs only in letter case in the specification's spelling).
 * 4. Through the engine's own steps into a study database: the measures stored are exactly those of a
 *    readable answer, for the types requested, and an unreadable answer stores nothing; an upload is
 *    accepted only from a readable answer with a recording id, is never sent twice, and every other
 *    answer leaves it rejected, uncertain (with a reason) or queued again behind a pause.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createApiClient, type ApiClient } from '../../../main/api/client';
import type { Db } from '../../../main/db/open';
import { runPollStep } from '../../../main/engine/poll-step';
import { PAUSES_QUEUE, uploadOne, type UploadOneOutcome } from '../../../main/engine/upload-step';
import { clampPollSettings, createTokenBucket, inProcessBudget } from '../../../main/jobs/poll-schedule';
import { ApiError, type ApiErrorKind } from '../../../shared/api/api-error';
import type { RecordingAnalysis, UploadOutcome } from '../../../shared/api/domain';
import { MEASURES, type MeasureDef } from '../../../shared/api/measures';
import {
  ANALYSIS_STATUSES,
  ANALYSIS_TYPES,
  analysisTypesFor,
  type AnalysisType,
  type ApiVersion,
} from '../../../shared/api/vocabulary';
import type { Result } from '../../../shared/result';
import { freshStudyDb } from '../../support/fresh-study-db';
import { startRawReplyServer, type RawReplyServer } from '../../support/raw-reply-server';
import {
  adversarialAnswer,
  MAX_RESPONSE_BYTES,
  type Json,
  type WireCase,
} from '../../support/wire-arbitraries';
import type { ShapeEndpoint } from '../../support/wire-shapes';
import { sqliteStore } from '../../../main/db/store/sqlite-store';

const SEED = Number(process.env['FC_SEED'] ?? 20261122);
const SCALE = Number(process.env['FC_RUNS_SCALE'] ?? 1);
const runs = (n: number) => Math.max(1, Math.round(n * SCALE));
const VERSIONS = ['v1.3', 'v1.2'] as const;
const KEY = 'sk-property-7c1e';
const ACCOUNT = '7d9e6f5a-1b2c-4d3e-9f8a-7b6c5d4e3f2a';
const RECORDING = '3f2b8c1e-9a4d-4c2b-8e1f-0a1b2c3d4e5f';

const root = mkdtempSync(join(tmpdir(), 'vs-props-'));
const audioPath = join(root, 'r.wav');
beforeAll(() => writeFileSync(audioPath, Buffer.alloc(3_000, 7)));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * A server of the test's own: a property that runs out of time goes on answering its own requests,
 * never the next test's.
 */
const ownServer = async (): Promise<RawReplyServer> => {
  const srv = await startRawReplyServer();
  onTestFinished(() => srv.close());
  return srv;
};

const clientFor = (srv: RawReplyServer, version: ApiVersion): ApiClient =>
  createApiClient({
    profile: { baseUrl: srv.url, version, apiKey: KEY },
    sleep: async () => {},
    random: () => 0.5,
    maxResponseBytes: MAX_RESPONSE_BYTES,
    // For a hang, not for speed: npm test runs vitest at a lower priority beside the window journeys,
    // and a loaded machine must not turn a slow local answer into a refusal.
    readTimeoutMs: 30_000,
    uploadTimeout: { baseMs: 30_000, minBytesPerSecond: 1_000_000_000 },
  });

/**
 * For a hang, not for speed: 3-7 s each on a quiet machine, over 60 s in a CI run where vitest took the
 * cycles the window journeys, the typecheck and the lint left.
 */
const PROPERTY_TIME_LIMIT_MS = 300_000;

/** Runs counted by what was done to the answer, printed after each property so CI shows the counts. */
const tally = () => {
  const by = new Map<string, number>();
  return {
    add: (label: string) => by.set(label, (by.get(label) ?? 0) + 1),
    print(name: string) {
      const total = [...by.values()].reduce((a, b) => a + b, 0);
      const parts = [...by.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([k, n]) => `${k} ${n}`)
        .join(', ');
      console.log(`property "${name}": ${total} runs (seed ${SEED}): ${parts}`);
      return total;
    },
  };
};

const isObj = (v: unknown): v is Record<string, Json> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** What makes an answer readable at all, per endpoint: written here from the issue, not from the reader. */
const READABLE: Record<ShapeEndpoint, (v: ApiVersion, body: Record<string, Json>) => boolean> = {
  ping: (_, b) => typeof b['message'] === 'string',
  createAccount: (_, b) => typeof b['account_id'] === 'string',
  upload: () => true,
  getAnalysis: (_, b) => isObj(b['metadata']) && isObj(b['analysis']),
  getUsage: (v, b) =>
    (v === 'v1.2'
      ? ['count', 'limit']
      : ['trial_remaining', 'trial_granted', 'included_remaining', 'included_granted', 'purchased_remaining']
    ).every((k) => finite(b[k])),
};

/** The body, parsed, when the answer is one the client must read: a 2xx under the size cap, JSON, readable for the endpoint. */
const usableBody = (
  version: ApiVersion,
  endpoint: ShapeEndpoint,
  c: WireCase,
): Record<string, Json> | null => {
  if (c.answer.kind !== 'reply' || c.answer.status < 200 || c.answer.status > 299 || c.text === null)
    return null;
  if (Buffer.byteLength(c.text, 'utf8') > MAX_RESPONSE_BYTES) return null;
  let v: unknown;
  try {
    v = JSON.parse(c.text);
  } catch {
    return null;
  }
  return isObj(v) && READABLE[endpoint](version, v) ? v : null;
};

const at = (v: Json | undefined, path: readonly string[]): Json | undefined => {
  let node = v;
  for (const k of path)
    node = node !== null && typeof node === 'object' && !Array.isArray(node) ? node[k] : undefined;
  return node;
};
const orNull = (v: Json | undefined): Json => (v === undefined ? null : v);
/** -0 and 0 are the same measure (JSON and SQLite do not keep the sign of zero). */
const num = (v: unknown): unknown => (v === 0 ? 0 : v);

/** Receipt audio facts as the domain holds them: text and finite numbers, anything else null (its flag keeps it). */
const wellTypedFacts = (b: Record<string, Json>): Record<string, Json> => ({
  ...b,
  audio_file_format: typeof b['audio_file_format'] === 'string' ? b['audio_file_format'] : null,
  ...Object.fromEntries(
    [
      'audio_size_bytes',
      'audio_sample_rate_hz',
      'audio_bit_rate_bps',
      'audio_duration_seconds',
      'speech_duration_seconds',
    ].map((k) => [k, finite(b[k]) ? b[k] : null]),
  ),
});

/** The simulated mark, as the client reads it: the header, or a `simulation` object whose `simulated` is true. */
const simulatedBy = (body: Record<string, Json>, header: boolean): boolean => {
  const s = body['simulation'];
  return header || (isObj(s) && s['simulated'] === true);
};

/** A value as the client must keep it: as received; a rating differing only in case in the listed spelling. */
const keptValue = (m: MeasureDef, v: Json): number | string => {
  if (typeof v === 'string') {
    const same =
      m.valueType === 'category' ? m.allowed?.find((a) => a.toLowerCase() === v.toLowerCase()) : undefined;
    return m.allowed?.includes(v) ? v : (same ?? v);
  }
  if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
  try {
    return JSON.stringify(v);
  } catch {
    return '"(nested too deeply to keep as text)"';
  }
};

/** Measures a body carries for one analysis type, by catalogue key, as the client keeps them. */
const measuresIn = (
  version: ApiVersion,
  body: Record<string, Json>,
  type: AnalysisType,
): Map<string, number | string> => {
  const out = new Map<string, number | string>();
  for (const m of MEASURES) {
    const path = m.path[version];
    if (m.analysis !== type || !path) continue;
    // Only along a chain of objects (an array or a number in the way is flagged, not read through).
    let node: Json | undefined = at(body, ['analysis', type]);
    for (const k of path) node = isObj(node) ? node[k] : undefined;
    if (node !== undefined && node !== null) out.set(m.key, keptValue(m, node));
  }
  return out;
};

/** The status the client acts on: a listed one in any letter case, else still processing. */
const statusOf = (v: Json | undefined): string =>
  typeof v === 'string' && (ANALYSIS_STATUSES as readonly string[]).includes(v.toLowerCase())
    ? v.toLowerCase()
    : 'processing';

const expectWellFormedError = (e: unknown) => {
  const parsed = ApiError.safeParse(e);
  expect(parsed.success, `not a well-formed ApiError: ${JSON.stringify(e)}`).toBe(true);
};

/** The client's result for an answer: an error exactly when the answer is unusable; otherwise the values of the body. */
const checkResult = <T>(
  version: ApiVersion,
  endpoint: ShapeEndpoint,
  c: WireCase,
  res: Result<T, unknown>,
  agree: (body: Record<string, Json>, value: T) => void,
) => {
  const body = usableBody(version, endpoint, c);
  if (!res.ok) {
    expectWellFormedError(res.error);
    expect(body, `a readable answer was refused (${c.label})`).toBeNull();
    return;
  }
  expect(body, `a value came from an unusable answer (${c.label})`).not.toBeNull();
  agree(body!, res.value);
};

const agreeAnalysis =
  (version: ApiVersion, header: boolean) => (body: Record<string, Json>, a: RecordingAnalysis) => {
    const md = (k: string) => orNull(at(body, ['metadata', k]));
    const txt = (k: string) => (typeof md(k) === 'string' ? md(k) : null);
    const nbr = (k: string) => (finite(md(k)) ? md(k) : null);
    expect(a.apiVersion).toBe(version);
    expect([a.recordingId, a.accountId, a.recordedAt, a.uploadedAt]).toEqual([
      txt('recording_id') ?? RECORDING,
      txt('account_id'),
      txt('recorded_at'),
      txt('uploaded_at'),
    ]);
    expect(a.audio).toEqual({
      format: txt('audio_file_format'),
      sizeBytes: nbr('audio_size_bytes'),
      sampleRateHz: nbr('audio_sample_rate_hz'),
      bitRateBps: nbr('audio_bit_rate_bps'),
      durationSeconds: nbr('audio_duration_seconds'),
      speechDurationSeconds: nbr('speech_duration_seconds'),
    });
    expect(a.source).toBe(simulatedBy(body, header) ? 'simulated' : 'service');
    const present = analysisTypesFor(version).filter((t) => {
      const o = at(body, ['analysis', t]);
      return isObj(o);
    });
    expect(a.outcomes.map((o) => o.type)).toEqual(present);
    for (const o of a.outcomes) {
      expect(o.status).toBe(statusOf(at(body, ['analysis', o.type, 'status'])));
      const want = measuresIn(version, body, o.type);
      expect(Object.keys(o.values).sort()).toEqual([...want.keys()].sort());
      for (const [k, v] of Object.entries(o.values)) {
        expect(num(v), k).toBe(num(want.get(k)));
      }
    }
  };

describe.each(VERSIONS)('API %s', (version) => {
  it(
    'ping, account creation and usage: never a throw, never a value the body did not give',
    async () => {
      const srv = await ownServer();
      const client = clientFor(srv, version);
      const stats = tally();
      const endpoint = fc.constantFrom<'ping' | 'createAccount' | 'getUsage'>(
        'ping',
        'createAccount',
        'getUsage',
      );
      const cases = endpoint.chain((e) => adversarialAnswer(version, e).map((c) => ({ e, c })));
      await fc.assert(
        fc.asyncProperty(cases, async ({ e, c }) => {
          stats.add(`${e}:${c.label}`);
          srv.answer(c.answer);
          switch (e) {
            case 'ping':
              return checkResult(version, e, c, await client.ping(), (body, message) =>
                expect(message).toBe(body['message']),
              );
            case 'createAccount':
              return checkResult(version, e, c, await client.createAccount(), (body, created) => {
                expect(created.account.accountId).toBe(body['account_id']);
                const role = body['organisation_role'];
                expect(created.account.role).toBe(typeof role === 'string' ? role : null);
              });
            case 'getUsage':
              return checkResult(version, e, c, await client.getUsage(), (body, usage) => {
                const n = (k: string) => body[k] as number;
                if (version === 'v1.2') {
                  expect(usage.detail).toEqual({ kind: 'upload_count', used: n('count'), limit: n('limit') });
                  expect(usage.uploadsRemaining).toBe(Math.max(0, n('limit') - n('count')));
                } else {
                  expect(usage.detail).toEqual({
                    kind: 'credits',
                    trialRemaining: n('trial_remaining'),
                    trialGranted: n('trial_granted'),
                    includedRemaining: n('included_remaining'),
                    includedGranted: n('included_granted'),
                    purchasedRemaining: n('purchased_remaining'),
                    tier: typeof body['tier'] === 'string' ? body['tier'] : null,
                  });
                }
              });
          }
        }),
        { seed: SEED, numRuns: runs(500) },
      );
      expect(stats.print(`ping, account, usage (${version})`)).toBe(runs(500));
    },
    PROPERTY_TIME_LIMIT_MS,
  );

  it(
    "analysis answers polled into the study database: exactly the valid body's measures for the types requested, nothing from an invalid one",
    async () => {
      const srv = await ownServer();
      const client = clientFor(srv, version);
      const stats = tally();
      let aboutOther = 0;
      const types = analysisTypesFor(version);
      // Nine answers in ten are about the recording asked for (its id in any letter case); the tenth about another one.
      const aboutAsked = (body: Json, n: number): Json => {
        const md = (body as { metadata?: Record<string, Json> }).metadata;
        if (n % 10 === 0 || !md) return body;
        return {
          ...(body as Record<string, Json>),
          metadata: { ...md, recording_id: n % 2 ? RECORDING : RECORDING.toUpperCase() },
        };
      };
      const cases = fc.record({
        c: adversarialAnswer(version, 'getAnalysis', aboutAsked),
        requested: fc.subarray([...types], { minLength: 1 }),
      });
      await fc.assert(
        fc.asyncProperty(cases, async ({ c, requested }) => {
          stats.add(c.label);
          srv.answer(c.answer);
          const db = freshStudyDb();
          try {
            const recId = seedUploaded(db, srv.url, version, requested);
            let res: Result<RecordingAnalysis, unknown> | null = null;
            const spy: ApiClient = {
              ...client,
              getAnalysis: async (id, t) => (res = await client.getAnalysis(id, t)),
            };
            const now = Date.now;
            await runPollStep(sqliteStore(db), spy, {
              profileId: 1,
              now,
              settings: clampPollSettings({}),
              bucket: inProcessBudget(createTokenBucket(1e6, 1e6, now)),
              random: () => 0.5,
              sleep: async () => {},
            });
            expect(res).not.toBeNull();
            expect(
              srv
                .received()
                .every(
                  (r) =>
                    r.url ===
                    `/${version}/recordings/${RECORDING}/analysis?analysis=${[...requested].sort().join(',')}`,
                ),
            ).toBe(true);
            checkResult(version, 'getAnalysis', c, res!, agreeAnalysis(version, c.simulatedHeader));

            // Stored only from a usable answer about the recording asked for.
            const usable = usableBody(version, 'getAnalysis', c);
            const body =
              usable !== null &&
              (typeof at(usable, ['metadata', 'recording_id']) !== 'string' ||
                String(at(usable, ['metadata', 'recording_id'])).toLowerCase() === RECORDING)
                ? usable
                : null;
            if (usable !== null && body === null) aboutOther++;
            const stored = new Map(
              (
                db
                  .prepare(
                    `SELECT measure_key k, value_num n, value_text t FROM measure_values WHERE recording_id = ?`,
                  )
                  .all(recId) as { k: string; n: number | null; t: string | null }[]
              ).map((r) => [r.k, r.n ?? r.t]),
            );
            const states = Object.fromEntries(
              (
                db.prepare(`SELECT type, state FROM analyses WHERE recording_id = ?`).all(recId) as {
                  type: string;
                  state: string;
                }[]
              ).map((r) => [r.type, r.state]),
            );
            const want = new Map<string, number | string>();
            const wantStates: Record<string, string> = {};
            // A settling answer with odd values for its type is asked for once more before it is final
            // (results.repo.ts): after this first poll it is still processing, nothing of it stored as values.
            const oddTypes = new Set(
              res !== null && (res as Result<RecordingAnalysis, unknown>).ok
                ? (res as { value: RecordingAnalysis }).value.outcomes
                    .filter((o) => (o.flags ?? []).length > 0)
                    .map((o) => o.type as string)
                : [],
            );
            for (const t of requested) {
              const status = body === null ? undefined : at(body, ['analysis', t, 'status']);
              wantStates[t] = body === null ? 'processing' : statusOf(status);
              if (oddTypes.has(t) && wantStates[t] !== 'processing') wantStates[t] = 'processing';
              if (body !== null && isObj(at(body, ['analysis', t])) && wantStates[t] === 'completed')
                for (const [k, v] of measuresIn(version, body!, t)) want.set(k, v);
            }
            expect(states).toEqual(wantStates);
            expect([...stored.keys()].sort()).toEqual([...want.keys()].sort());
            for (const [k, v] of stored) expect(num(v), k).toBe(num(want.get(k)));
            if (body === null) expect(stored.size).toBe(0);
          } finally {
            db.close();
          }
        }),
        { seed: SEED + 1, numRuns: runs(700) },
      );
      expect(
        stats.print(`analysis → database (${version}); valid answers about another recording: ${aboutOther}`),
      ).toBe(runs(700));
    },
    PROPERTY_TIME_LIMIT_MS,
  );

  it(
    'upload answers: accepted and stored only from a valid answer, never sent twice, every other answer rejected, uncertain or queued again',
    async () => {
      const srv = await ownServer();
      const client = clientFor(srv, version);
      const stats = tally();
      const cases = fc.record({
        c: adversarialAnswer(version, 'upload'),
        analyses: fc.subarray([...analysisTypesFor(version)], { minLength: 1 }),
      });
      await fc.assert(
        fc.asyncProperty(cases, async ({ c, analyses }) => {
          stats.add(c.label);
          srv.answer(c.answer);
          const db = freshStudyDb();
          try {
            const recId = seedQueued(db, srv.url, version);
            let out: UploadOutcome<ApiError> | null = null;
            const spy: ApiClient = { ...client, upload: async (r) => (out = await client.upload(r)) };
            const step: UploadOneOutcome = await uploadOne(
              sqliteStore(db),
              spy,
              {
                id: recId,
                studyId: 1,
                batchId: 1,
                path: audioPath,
                contentSha256: 'f'.repeat(64),
                accountId: ACCOUNT,
                recordedAt: '2026-03-02T09:15:00Z',
                analyses,
                isolateOldestSpeaker: false,
              },
              { now: Date.now, firstPollAfterMs: 15_000 },
            );
            expect(out).not.toBeNull();
            const o = out!;
            const row = db.prepare(`SELECT * FROM recordings WHERE id = ?`).get(recId) as Record<
              string,
              unknown
            >;
            const posts = srv.received().filter((r) => r.method === 'POST');
            const body = usableBody(version, 'upload', c);

            // A paid-for upload is always recorded: a fraction or an unsafe integer in an audio fact is kept
            // as received (flagged), never refused by the database (migration 0080).
            expect(step.kind).not.toBe('unrecorded');
            if (o.status === 'accepted') {
              expect(body, `accepted an unusable answer (${c.label})`).not.toBeNull();
              const b = body!;
              expect(row).toMatchObject({
                upload_state: 'uploaded',
                upload_attempts: 1,
                recording_id: b['recording_id'],
                api_version: version,
              });
              const facts = (o: Record<string, unknown>, keys: readonly string[]) =>
                keys.map((k) => num(o[k] ?? null));
              expect(
                facts(row, [
                  'svc_format',
                  'svc_size_bytes',
                  'svc_sample_rate_hz',
                  'svc_bit_rate_bps',
                  'svc_duration_seconds',
                  'svc_speech_seconds',
                ]),
              ).toEqual(
                facts(wellTypedFacts(b), [
                  'audio_file_format',
                  'audio_size_bytes',
                  'audio_sample_rate_hz',
                  'audio_bit_rate_bps',
                  'audio_duration_seconds',
                  'speech_duration_seconds',
                ]),
              );
              expect(row['result_source']).toBe(simulatedBy(b, c.simulatedHeader) ? 'simulated' : 'service');
              if (typeof b['uploaded_at'] === 'string') expect(row['uploaded_at']).toBe(b['uploaded_at']);
              expect(
                (
                  db
                    .prepare(
                      `SELECT type FROM analyses WHERE recording_id = ? AND state = 'processing' ORDER BY type`,
                    )
                    .all(recId) as { type: string }[]
                ).map((r) => r.type),
              ).toEqual([...analyses].sort());
            } else {
              expectWellFormedError(o.error);
              expect(row['recording_id']).toBeNull();
              expect(db.prepare(`SELECT count(*) n FROM analyses`).get()).toEqual({ n: 0 });
              const kind: ApiErrorKind = o.error.kind;
              if (o.status === 'uncertain') {
                // The service may have accepted it: held for the researcher, with the reason.
                expect(row).toMatchObject({ upload_state: 'upload_uncertain', upload_attempts: 1 });
                expect(JSON.parse(row['upload_error'] as string).reason.length).toBeGreaterThan(20);
              } else if (PAUSES_QUEUE.has(kind)) {
                // Certainly not charged: back in the queue behind an organisation-wide pause.
                expect(step.kind).toBe('paused');
                expect(row).toMatchObject({ upload_state: 'queued', upload_attempts: 0 });
              } else {
                expect(row).toMatchObject({ upload_state: 'rejected', upload_attempts: 1 });
                expect(JSON.parse(row['upload_error'] as string).kind).toBe(kind);
              }
              // A 2xx, a 5xx or a lost answer after sending is never a refusal: it may have been charged.
              const ambiguous =
                c.answer.kind !== 'reply' ||
                (c.answer.status >= 200 && c.answer.status < 300) ||
                c.answer.status >= 500;
              if (ambiguous) expect(o.status).toBe('uncertain');
            }
            // Sent once; only a 429 (answered before processing, nothing charged) is sent again, at most three times in all.
            const is429 = c.answer.kind === 'reply' && c.answer.status === 429;
            expect(posts.length).toBeGreaterThanOrEqual(1);
            expect(posts.length).toBeLessThanOrEqual(is429 ? 3 : 1);
          } finally {
            db.close();
          }
        }),
        { seed: SEED + 2, numRuns: runs(500) },
      );
      expect(stats.print(`upload → database (${version})`)).toBe(runs(500));
    },
    PROPERTY_TIME_LIMIT_MS,
  );
});

const AT = '2026-03-02T10:00:00.000Z';
const seedStudy = (db: Db, url: string, version: ApiVersion) => {
  db.prepare(
    `INSERT INTO service_profiles (id, name, base_url, api_version, created_at) VALUES (1, 'p', ?, ?, ?)`,
  ).run(url, version, AT);
  db.prepare(`INSERT INTO studies (id, name, profile_id, created_at) VALUES (1, 'Study', 1, ?)`).run(AT);
  db.prepare(
    `INSERT INTO participants (id, study_id, code, account_id, created_at) VALUES (1, 1, 'P-001', ?, ?)`,
  ).run(ACCOUNT, AT);
  db.prepare(
    `INSERT INTO batches (id, study_id, created_at, analyses, state) VALUES (1, 1, ?, '[]', 'running')`,
  ).run(AT);
};
const insertRecording = (
  db: Db,
  state: string,
  recordingId: string | null,
  uploadedAt: string | null,
): number =>
  Number(
    db
      .prepare(
        `INSERT INTO recordings (study_id, participant_id, batch_id, source_path, content_sha256, size_bytes, recorded_at, recorded_at_source, upload_state, recording_id, uploaded_at, created_at)
     VALUES (1, 1, 1, ?, ?, 3000, '2026-03-02T09:15:00Z', 'manifest', ?, ?, ?, ?)`,
      )
      .run(audioPath, 'f'.repeat(64), state, recordingId, uploadedAt, AT).lastInsertRowid,
  );

/** An uploaded recording whose requested analyses are processing and due for a poll now. */
const seedUploaded = (
  db: Db,
  url: string,
  version: ApiVersion,
  requested: readonly AnalysisType[],
): number => {
  seedStudy(db, url, version);
  const nowIso = new Date().toISOString();
  const id = insertRecording(db, 'uploaded', RECORDING, nowIso);
  const ins = db.prepare(
    `INSERT INTO analyses (recording_id, type, state, requested_at, next_poll_at) VALUES (?, ?, 'processing', ?, ?)`,
  );
  for (const t of ANALYSIS_TYPES)
    if (requested.includes(t)) ins.run(id, t, nowIso, '2000-01-01T00:00:00.000Z');
  return id;
};

const seedQueued = (db: Db, url: string, version: ApiVersion): number => {
  seedStudy(db, url, version);
  return insertRecording(db, 'queued', null, null);
};

describe('found by these properties, not yet fixed', () => {
  // Found by these properties: parseRetryAfter once read a Retry-After of 400 digits as Infinity, and the
  // ApiError then broke its own schema (JSON turns Infinity into null). It is now capped at a day.
  it('a Retry-After too large for a number still gives a well-formed ApiError', async () => {
    const srv = await ownServer();
    srv.answer({
      kind: 'reply',
      status: 429,
      headers: { 'Content-Type': 'application/json', 'Retry-After': '1' + '0'.repeat(400) },
      body: '',
    });
    const res = await clientFor(srv, 'v1.3').getUsage();
    expect(res.ok).toBe(false);
    if (!res.ok) {
      expectWellFormedError(res.error);
      expect(res.error.retryAfterMs).toBe(24 * 60 * 60 * 1000);
    }
  });
});
