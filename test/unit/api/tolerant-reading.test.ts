/**
 * Issue 13, "read tolerantly, flag precisely", as properties of the whole client (fast-check, seeded;
 * FC_SEED replays, FC_RUNS_SCALE scales). Answers come from a loose version of the wire schemas
 * (test/support/loose-answers.ts), through the client's real reading path (an injected fetch, no socket):
 *
 * 1. The client never throws and never refuses a readable answer.
 * 2. Every well-formed value is kept, every odd one is kept as received (a rating differing only in
 *    letter case in the specification's spelling), each in its analysis type whatever its siblings hold.
 * 3. Exactly the out-of-specification values are flagged: the flags (code and path) equal those the
 *    generator knows it caused, no more and no fewer.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createApiClient } from '../../../main/api/client';
import type { RecordingAnalysis } from '../../../shared/api/domain';
import { isAboutRecording, readAnalysisAnswer } from '../../../shared/api/read/answers';
import type { ApiVersion } from '../../../shared/api/vocabulary';
import { looseAnalysisAnswer, type Json, type LooseAnswer } from '../../support/loose-answers';

const SEED = Number(process.env['FC_SEED'] ?? 20261313);
const SCALE = Number(process.env['FC_RUNS_SCALE'] ?? 1);
const RUNS = Math.max(1, Math.round(10_000 * SCALE));
/** Through ky and the whole client (slower, ~5 ms each); the reader alone takes the other runs. */
const CLIENT_RUNS = Math.max(1, Math.round(500 * SCALE));
const POLLED = '3f2b8c1e-9a4d-4c2b-8e1f-0a1b2c3d4e5f';
const KEY = 'sk-tolerant-51ab';

/** -0 and 0 are one value once through JSON. */
const num = (v: unknown): unknown => (v === 0 ? 0 : v);

const clientAnswering = (version: ApiVersion, box: { body: string }) =>
  createApiClient({
    profile: { baseUrl: 'https://service.invalid', version, apiKey: KEY },
    sleep: async () => {},
    random: () => 0.5,
    fetch: async () =>
      new Response(box.body, { status: 200, headers: { 'Content-Type': 'application/json' } }),
  });

const check = (
  body: LooseAnswer['body'],
  want: LooseAnswer['expect'],
  a: RecordingAnalysis,
  codes: Map<string, number>,
) => {
  // What the service sent, as JSON carries it (-0 becomes 0).
  const sentAnalysis = (JSON.parse(JSON.stringify(body)) as { analysis: Record<string, Json> }).analysis;
  // Flags: exactly those the generator caused.
  const got = [...(a.flags ?? []), ...a.outcomes.flatMap((o) => o.flags ?? [])].map(
    (f) => `${f.code}@${f.path}`,
  );
  expect(got.sort()).toEqual([...want.flags].sort());
  for (const f of got) codes.set(f.split('@')[0]!, (codes.get(f.split('@')[0]!) ?? 0) + 1);

  // Metadata as received (a member of the wrong kind is null, its flag keeps it).
  const m = want.metadata;
  expect([a.recordingId, a.accountId, a.recordedAt, a.uploadedAt]).toEqual([
    m['recording_id'],
    m['account_id'],
    m['recorded_at'],
    m['uploaded_at'],
  ]);
  expect(
    [
      a.audio.format,
      a.audio.sizeBytes,
      a.audio.sampleRateHz,
      a.audio.bitRateBps,
      a.audio.durationSeconds,
      a.audio.speechDurationSeconds,
    ].map(num),
  ).toEqual(
    [
      m['audio_file_format'],
      m['audio_size_bytes'],
      m['audio_sample_rate_hz'],
      m['audio_bit_rate_bps'],
      m['audio_duration_seconds'],
      m['speech_duration_seconds'],
    ].map(num),
  );
  const sent = String(m['recording_id']).toLowerCase();
  expect(isAboutRecording(a, POLLED)).toBe(sent === POLLED);

  // Each analysis type on its own: status acted on, values kept, raw JSON kept.
  expect(a.outcomes.map((o) => o.type).sort()).toEqual([...want.outcomes.keys()].sort());
  for (const o of a.outcomes) {
    const w = want.outcomes.get(o.type)!;
    expect(o.status).toBe(w.status);
    expect(Object.keys(o.values).sort()).toEqual([...w.values.keys()].sort());
    for (const [k, v] of Object.entries(o.values)) expect(num(v), k).toBe(num(w.values.get(k)));
    expect(JSON.parse(o.raw!)).toEqual(sentAnalysis[o.type]);
  }
  expect((a.unlisted ?? []).map((u) => u.name).sort()).toEqual([...want.unlisted].sort());
  for (const u of a.unlisted ?? []) expect(JSON.parse(u.raw)).toEqual(sentAnalysis[u.name]);
};

describe.each(['v1.3', 'v1.2'] as const)('API %s: loose analysis answers', (version) => {
  it(`${RUNS} answers read: every value kept, exactly the odd ones flagged`, () => {
    const codes = new Map<string, number>();
    fc.assert(
      fc.property(looseAnalysisAnswer(version, POLLED), ({ body, expect: want }) => {
        // As the client reads it: the JSON text parsed, then read.
        const res = readAnalysisAnswer(version, JSON.parse(JSON.stringify(body)), {
          simulatedHeader: false,
          polledRecordingId: POLLED,
        });
        expect(res.ok).toBe(true);
        if (res.ok) check(body, want, res.value, codes);
      }),
      { seed: SEED + (version === 'v1.3' ? 0 : 1), numRuns: RUNS },
    );
    expectEveryCode(version, RUNS, codes);
  }, 120_000);

  it(`${CLIENT_RUNS} answers through the client: never a throw, never a refusal, the same reading`, async () => {
    const box = { body: '' };
    const client = clientAnswering(version, box);
    const codes = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(looseAnalysisAnswer(version, POLLED), async ({ body, expect: want }) => {
        box.body = JSON.stringify(body);
        const res = await client.getAnalysis(POLLED);
        expect(res.ok, JSON.stringify(!res.ok && res.error)).toBe(true);
        if (!res.ok) return;
        check(body, want, res.value, codes);
      }),
      { seed: SEED + (version === 'v1.3' ? 2 : 3), numRuns: CLIENT_RUNS },
    );
    expectEveryCode(version, CLIENT_RUNS, codes);
  }, 120_000);
});

const expectEveryCode = (version: ApiVersion, runs: number, codes: Map<string, number>) => {
  // Every flag code the generator can cause was seen (so the property is not vacuous).
  const seen = [...codes.entries()].sort((x, y) => y[1] - x[1]);
  console.log(
    `tolerant reading (${version}), ${runs} answers, flags seen: ${seen.map(([c, n]) => `${c} ${n}`).join(', ')}`,
  );
  for (const c of [
    'rating_not_in_enum',
    'rating_case_normalised',
    'score_out_of_range',
    'probability_out_of_range',
    'integer_expected',
    'number_expected',
    'probabilities_do_not_sum_to_1',
    'speech_longer_than_audio',
    'values_while_processing',
    'status_not_in_enum',
    'required_missing',
    'unknown_field',
    'unknown_analysis_type',
    'not_a_uuid',
    'not_a_date_time',
    'object_expected',
    'negative_value',
  ])
    expect(codes.get(c) ?? 0, c).toBeGreaterThan(0);
};
