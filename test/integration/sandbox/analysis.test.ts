/**
 * GET /recordings/{id}/analysis in both versions: processing → completed or error on the fake clock
 * (never back), not_requested, v1.3 omission against v1.2 nulls, the `analysis` filter, 400 and 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEASURES } from '../../../shared/api/measures';
import { API_VERSIONS, type AnalysisType, type ApiVersion } from '../../../shared/api/vocabulary';
import { WIRE } from '../../../shared/api/wire';
import { SCENARIO_PRESETS } from '../../../main/sandbox/config';
import { failsProcessing, simulateMeasures } from '../../../main/sandbox/simulate';
import {
  ANALYSIS_OF,
  call,
  createAccount,
  expectErrorShape,
  goodWav,
  KEYS,
  parseWire,
  startTestSandbox,
  upload,
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

const FAST = SCENARIO_PRESETS.fast.processingMs;
const LONGEST = Math.max(...Object.values(FAST));

const uploadOne = async (
  version: ApiVersion,
  analysis: string[],
  audio = goodWav(),
  extra: { isolate_oldest_speaker?: boolean } = {},
) => {
  const account = await createAccount(t.sb, version);
  const a = await upload(t.sb, version, KEYS.active, audio, { account_id: account, analysis, ...extra });
  if (a.status !== 200) throw new Error(a.text);
  return { account, id: (a.json as { recording_id: string }).recording_id };
};

const get = (version: string, id: string, query = '', key: string = KEYS.active) =>
  call(t.sb, version, `/recordings/${id}/analysis${query}`, { key });

describe.each(API_VERSIONS)('%s', (version: ApiVersion) => {
  it('every requested type is processing (status only) until its delay passes, then completed, and stays so', async () => {
    const { id, account } = await uploadOne(version, ['wellbeing', 'parkinsons']);
    const first = await get(version, id);
    expect(first.status).toBe(200);
    const parsed = parseWire(WIRE[version].analysis, first);
    expect(parsed.simulation).toEqual({
      simulated: true,
      generator: expect.stringMatching(/^voicescope-sandbox\//),
    });
    expect(first.headers.get('x-voicescope-simulated')).toBe('1');
    expect(ANALYSIS_OF(first)).toEqual({
      wellbeing: { status: 'processing' },
      parkinsons: { status: 'processing' },
      alzheimers: { status: 'not_requested' },
      ...(version === 'v1.3' ? { communication_coach: { status: 'not_requested' } } : {}),
    });
    expect(parsed.metadata).toMatchObject({
      recording_id: id,
      account_id: account,
      audio_file_format: 'wav',
    });

    t.clock.advance(FAST.wellbeing);
    const mid = ANALYSIS_OF(await get(version, id));
    expect(mid.wellbeing!.status).toBe('completed');
    expect(mid.parkinsons!.status).toBe(FAST.parkinsons > FAST.wellbeing ? 'processing' : 'completed');

    t.clock.advance(LONGEST);
    const done = ANALYSIS_OF(await get(version, id));
    expect(done.wellbeing!.status).toBe('completed');
    expect(done.parkinsons!.status).toBe('completed');
    expect(done.parkinsons).toHaveProperty('indicators');
    expect(done.parkinsons).toHaveProperty(version === 'v1.3' ? 'insights' : 'predictions');

    // The clock going back does not bring processing back.
    t.clock.advance(-10 * LONGEST);
    expect(ANALYSIS_OF(await get(version, id)).parkinsons!.status).toBe('completed');
    t.clock.advance(10 * LONGEST);
  });

  it("completed values are the simulator's, each at its catalogue path for this version", async () => {
    const { id, account } = await uploadOne(version, ['wellbeing', 'parkinsons', 'alzheimers']);
    t.clock.advance(LONGEST);
    const a = await get(version, id);
    const parsed = parseWire(WIRE[version].analysis, a);
    const rec = t.sb.listRecordings().find((r) => r.id === id)!;
    for (const type of ['wellbeing', 'parkinsons', 'alzheimers'] as const) {
      const values = simulateMeasures({
        accountId: account,
        audioSha256: rec.audioSha256,
        type,
        speechSeconds: rec.reported.speechSeconds,
        durationSeconds: rec.reported.durationSeconds,
        recordedAt: rec.recordedAt,
      });
      const obj = (parsed.analysis as Record<string, unknown>)[type];
      for (const m of MEASURES.filter((x) => x.analysis === type)) {
        const path = m.path[version];
        if (!path) continue;
        const got = path.reduce<unknown>(
          (n, k) => (n && typeof n === 'object' ? (n as Record<string, unknown>)[k] : undefined),
          obj,
        );
        const want = values[m.key] ?? null;
        if (version === 'v1.3') expect(got ?? null, m.key).toEqual(want);
        else expect(got, m.key).toEqual(want);
      }
    }
  });

  it('the analysis query parameter filters the types; unknown names are 400', async () => {
    const { id } = await uploadOne(version, ['wellbeing']);
    const only = await get(version, id, '?analysis=parkinsons,wellbeing');
    expect(only.status).toBe(200);
    expect(Object.keys(ANALYSIS_OF(only)).sort()).toEqual(['parkinsons', 'wellbeing']);
    expect(ANALYSIS_OF(only).parkinsons).toEqual({ status: 'not_requested' });
    const one = await get(version, id, '?analysis=alzheimers');
    expect(Object.keys(ANALYSIS_OF(one))).toEqual(['alzheimers']);
    for (const q of [
      '?analysis=voice',
      '?analysis=wellbeing,nope',
      ...(version === 'v1.2' ? ['?analysis=communication_coach'] : []),
    ]) {
      const bad = await get(version, id, q);
      expect(bad.status, q).toBe(400);
      expect(expectErrorShape(bad, version).type).toBe('InvalidRequest');
    }
  });

  it("404 for an unknown recording and for another organisation's recording; 400 for a malformed id", async () => {
    const { id } = await uploadOne(version, ['wellbeing']);
    const unknown = await get(version, '0b5e3a2c-1111-4c2b-8e1f-0a1b2c3d4e5f');
    expect(unknown.status).toBe(404);
    expect(expectErrorShape(unknown, version).type).toBe('RecordingNotFound');
    const foreign = await get(version, id, '', KEYS.other);
    expect(foreign.status).toBe(404);
    expect(foreign.json).toEqual(
      unknown.json === undefined
        ? undefined
        : { error: { type: 'RecordingNotFound', message: expect.any(String) } },
    );
    const malformed = await get(version, 'not-a-uuid');
    expect(malformed.status).toBe(400);
    expect(expectErrorShape(malformed, version).type).toBe('InvalidRequest');
  });

  it('a type that fails processing turns into { status: "error" } and stays there', async () => {
    t.sb.setScenario({ failureRate: { alzheimers: 1 } });
    try {
      const { id } = await uploadOne(version, ['wellbeing', 'alzheimers']);
      t.clock.advance(LONGEST);
      const a = ANALYSIS_OF(await get(version, id));
      expect(a.alzheimers).toEqual({ status: 'error' });
      expect(a.wellbeing!.status).toBe('completed');
      t.clock.advance(LONGEST);
      expect(ANALYSIS_OF(await get(version, id)).alzheimers).toEqual({ status: 'error' });
    } finally {
      t.sb.setScenario({ failureRate: { alzheimers: 0 } });
    }
  });
});

describe('v1.3 omission against v1.2 null', () => {
  it('unavailable values are omitted in v1.3 and null in v1.2 (same recording, both versions)', async () => {
    // Find, among a few generated files, one whose simulated result leaves some value unavailable.
    let found: { id: string; key: string; type: AnalysisType } | null = null;
    for (let seed = 1; seed <= 40 && !found; seed++) {
      const { id, account } = await uploadOne(
        'v1.3',
        ['wellbeing', 'parkinsons', 'alzheimers'],
        wav({ seconds: 36, speechSeconds: 33, sampleRateHz: 8_000, seed: 100 + seed }),
      );
      const rec = t.sb.listRecordings().find((r) => r.id === id)!;
      for (const type of ['parkinsons', 'alzheimers', 'wellbeing'] as const) {
        const values = simulateMeasures({
          accountId: account,
          audioSha256: rec.audioSha256,
          type,
          speechSeconds: rec.reported.speechSeconds,
          durationSeconds: rec.reported.durationSeconds,
          recordedAt: rec.recordedAt,
        });
        const key = Object.keys(values).find(
          (k) => values[k] === null && MEASURES.find((m) => m.key === k)?.path['v1.2'],
        );
        if (key) {
          found = { id, key, type };
          break;
        }
      }
    }
    expect(found, 'no simulated result with an unavailable value among 40 files').not.toBeNull();
    const { id, key, type } = found!;
    t.clock.advance(LONGEST);
    const m = MEASURES.find((x) => x.key === key)!;
    const at = (o: unknown, path: readonly string[]) =>
      path.reduce<unknown>(
        (n, k) => (n && typeof n === 'object' ? (n as Record<string, unknown>)[k] : undefined),
        o,
      );
    const v13 = await get('v1.3', id);
    const v12 = await get('v1.2', id);
    parseWire(WIRE['v1.3'].analysis, v13);
    parseWire(WIRE['v1.2'].analysis, v12);
    expect(at(ANALYSIS_OF(v13)[type], m.path['v1.3']!)).toBeUndefined();
    expect(JSON.stringify(v13.json)).not.toContain('null');
    expect(at(ANALYSIS_OF(v12)[type], m.path['v1.2']!)).toBeNull();
  });

  it('v1.2 shows no communication_coach; v1.3 shows it always, `not_requested` when it was not requested', async () => {
    const { id } = await uploadOne('v1.3', ['wellbeing', 'communication_coach']);
    t.clock.advance(LONGEST);
    const v13 = ANALYSIS_OF(await get('v1.3', id));
    expect(v13.communication_coach!.status).toBe(
      failsProcessing({
        audioSha256: t.sb.listRecordings().find((r) => r.id === id)!.audioSha256,
        type: 'communication_coach',
        failureRate: 0,
      })
        ? 'error'
        : 'completed',
    );
    expect(Object.keys(ANALYSIS_OF(await get('v1.2', id))).sort()).toEqual([
      'alzheimers',
      'parkinsons',
      'wellbeing',
    ]);

    const { id: plain } = await uploadOne('v1.3', ['wellbeing']);
    // The specification's states: a type not requested at upload is `not_requested` (never null, never absent).
    expect(ANALYSIS_OF(await get('v1.3', plain)).communication_coach).toEqual({ status: 'not_requested' });
    expect(ANALYSIS_OF(await get('v1.3', plain, '?analysis=communication_coach'))).toEqual({
      communication_coach: { status: 'not_requested' },
    });
  });

  it("with isolation the metadata describe the retained speaker's audio", async () => {
    const audio = wav({ seconds: 80, speechSeconds: 70, sampleRateHz: 16_000, seed: 9 });
    const { id } = await uploadOne('v1.3', ['wellbeing'], audio, { isolate_oldest_speaker: true });
    const rec = t.sb.listRecordings().find((r) => r.id === id)!;
    const meta = parseWire(WIRE['v1.3'].analysis, await get('v1.3', id)).metadata;
    expect(meta.audio_duration_seconds).toBe(rec.reported.durationSeconds);
    expect(meta.speech_duration_seconds).toBe(rec.reported.speechSeconds);
    expect(meta.audio_size_bytes).toBeLessThan(audio.byteLength);
  });
});
