/**
 * The sandbox's misbehaving mode (docs/sandbox.md, "Misbehaving like a looser real service"): each
 * misbehaviour, switched on alone, is visible in the sandbox's answers; the workstation's API client
 * (main/api/client.ts) reads each answer without throwing, keeps what it can and flags what is odd.
 * Also: an unrequested v1.3 type is `not_requested`, and an upload over 50 MB gets a 413 with a body.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../../main/api/client';
import { bytesAudioSource, type AudioSource } from '../../../main/api/upload-body';
import { MISBEHAVIOURS, type MisbehaviourName } from '../../../main/sandbox/misbehave';
import type { MisbehaveInput } from '../../../main/sandbox/misbehave';
import type { DataQualityFlag } from '../../../shared/api/data-quality';
import type { RecordingAnalysis } from '../../../shared/api/domain';
import { MEASURES } from '../../../shared/api/measures';
import { ANALYSIS_TYPES, type AnalysisType } from '../../../shared/api/vocabulary';
import { call, goodWav, KEYS, startTestSandbox, type Clock } from './helpers';
import type { Sandbox } from '../../../main/sandbox/server';

const ALL: AnalysisType[] = [...ANALYSIS_TYPES];

const get = (s: Sandbox, version: string, id: string) =>
  call(s, version, `/recordings/${id}/analysis`, { key: KEYS.active });
const SIX_MINUTES = 6 * 60_000;

let sb: Sandbox;
let clock: Clock;
let client: ApiClient;

beforeEach(async () => {
  ({ sb, clock } = await startTestSandbox());
  sb.setScenario('fast');
  client = createApiClient({
    profile: { baseUrl: sb.url, version: 'v1.3', apiKey: KEYS.active },
    sleep: async () => {},
    random: () => 0.5,
    now: clock.now,
  });
});
afterEach(async () => {
  await sb.close();
});

/** Switches on one misbehaviour (or several) for every recording and account. */
const misbehave = (enabled: MisbehaviourName[], more: Partial<MisbehaveInput> = {}) =>
  sb.setScenario({
    preset: 'fast',
    misbehave: {
      enabled,
      share: 1,
      failingPollShare: 1,
      lateCompletionShare: 1,
      accountShare: 1,
      ...more,
    },
  });

/** An account, asking again after an unreadable answer as a researcher deciding "retry" would. */
const accountFor = async (): Promise<string> => {
  for (let attempt = 0; attempt < 3; attempt++) {
    const r = await client.createAccount();
    if (r.ok) return r.value.account.accountId;
  }
  throw new Error('no account after three requests');
};

const uploadOne = async (analyses: AnalysisType[] = ALL) => {
  const out = await client.upload({
    accountId: await accountFor(),
    recordedAt: '2025-03-01T09:30:00Z',
    analyses,
    audio: bytesAudioSource(goodWav()),
  });
  if (out.status !== 'accepted') throw new Error(`upload ${out.status}`);
  return out.receipt;
};

/** The analysis, read by the client once every type has had time to end. */
const resultOf = async (recordingId: string): Promise<RecordingAnalysis> => {
  clock.advance(5_000);
  const r = await client.getAnalysis(recordingId);
  if (!r.ok) throw new Error(`getAnalysis: ${r.error.kind}`);
  return r.value;
};

const flagsOf = (a: RecordingAnalysis): DataQualityFlag[] => [
  ...(a.flags ?? []),
  ...a.outcomes.flatMap((o) => o.flags ?? []),
];
const codes = (a: RecordingAnalysis) => new Set(flagsOf(a).map((f) => f.code));
const valueOf = (a: RecordingAnalysis, key: string) => {
  const m = MEASURES.find((x) => x.key === key)!;
  return a.outcomes.find((o) => o.type === m.analysis)?.values[key];
};
const rawAnalysis = async (id: string) =>
  (await get(sb, 'v1.3', id)).json as {
    metadata: Record<string, unknown>;
    analysis: Record<string, Record<string, unknown> | null>;
    simulation: unknown;
  };

describe('the sandbox follows the specification unless told to misbehave', () => {
  it('gives an unrequested v1.3 type as `not_requested`, never null', async () => {
    const receipt = await uploadOne(['wellbeing']);
    const raw = await rawAnalysis(receipt.recordingId);
    expect(raw.analysis['communication_coach']).toEqual({ status: 'not_requested' });
    expect(raw.analysis['parkinsons']).toEqual({ status: 'not_requested' });
    const read = await resultOf(receipt.recordingId);
    expect(read.outcomes.find((o) => o.type === 'communication_coach')?.status).toBe('not_requested');
    expect(flagsOf(read)).toEqual([]);
  });

  it('lists every misbehaviour in its vocabulary once', () => {
    expect(new Set(MISBEHAVIOURS).size).toBe(11);
  });
});

describe('each misbehaviour on its own is visible in the answers, and the client reads and flags it', () => {
  it('free_string_ratings: ratings in another case or unknown words; kept, normalised or flagged', async () => {
    misbehave(['free_string_ratings']);
    const { recordingId } = await uploadOne();
    const read = await resultOf(recordingId);
    const raw = await rawAnalysis(recordingId);
    const wellbeing = raw.analysis['wellbeing'] as { insights: Record<string, { rating: string }> };
    const ratings = Object.values(wellbeing.insights).map((i) => i.rating);
    expect(
      ratings.some((r) => !['low', 'medium', 'high', 'mild', 'moderate', 'severe', 'none'].includes(r)),
    ).toBe(true);
    const c = codes(read);
    expect(c.has('rating_not_in_enum') || c.has('rating_case_normalised')).toBe(true);
    for (const key of ['wb_stress', 'wb_anxiety', 'wb_depression', 'ad_cognition'])
      expect(valueOf(read, key), key).toBeTypeOf('string');
  });

  it("out_of_range: a score above 100 or below 0, a Parkinson's score of 250, a probability outside 0–1", async () => {
    misbehave(['out_of_range']);
    const { recordingId } = await uploadOne();
    const read = await resultOf(recordingId);
    expect(valueOf(read, 'pd_risk_score')).toBe(250);
    const ccScores = ['cc_rhythm', 'cc_clarity', 'cc_positiveness', 'cc_speaking_rate'].map((k) =>
      valueOf(read, k),
    );
    expect(ccScores.some((v) => typeof v === 'number' && (v > 100 || v < 0))).toBe(true);
    const probs = ['ad_p_hc', 'ad_p_mci', 'ad_p_ad'].map((k) => valueOf(read, k) as number);
    expect(probs.some((p) => p > 1 || p < 0)).toBe(true);
    expect(codes(read)).toEqual(new Set(['score_out_of_range', 'probability_out_of_range']));
  });

  it('probabilities_not_summing: hc + mci + ad is not 1; each kept', async () => {
    misbehave(['probabilities_not_summing']);
    const { recordingId } = await uploadOne();
    const read = await resultOf(recordingId);
    const sum = ['ad_p_hc', 'ad_p_mci', 'ad_p_ad'].reduce((s, k) => s + (valueOf(read, k) as number), 0);
    expect(Math.abs(sum - 1)).toBeGreaterThan(0.02);
    expect([...codes(read)]).toEqual(['probabilities_do_not_sum_to_1']);
  });

  it('fractional_integers: whole-number values sent as fractions; kept as received', async () => {
    misbehave(['fractional_integers']);
    const { recordingId } = await uploadOne();
    const read = await resultOf(recordingId);
    const volume = valueOf(read, 'pd_volume');
    expect(Number.isInteger(volume)).toBe(false);
    expect([...codes(read)]).toEqual(['integer_expected']);
    const flagged = flagsOf(read).flatMap((f) => f.measures);
    expect(flagged).toEqual(expect.arrayContaining(['pd_volume', 'cc_rhythm', 'cc_word_rate']));
  });

  it('extra_fields: unknown members and an unknown analysis type, kept as received', async () => {
    misbehave(['extra_fields']);
    const { recordingId } = await uploadOne();
    const raw = await rawAnalysis(recordingId);
    expect(raw.metadata['service_region']).toBe('sim-eu-1');
    expect(raw.analysis['voice_age']).toMatchObject({ status: 'completed' });
    const read = await resultOf(recordingId);
    expect(read.unlisted?.map((u) => u.name)).toEqual(['voice_age']);
    expect(codes(read)).toEqual(new Set(['unknown_field', 'unknown_analysis_type']));
    expect(read.outcomes.find((o) => o.type === 'parkinsons')?.raw).toContain('model_version');
  });

  it('nulls: optional values and an unrequested type as null; read as "not reported", never an error', async () => {
    misbehave(['nulls']);
    const { recordingId } = await uploadOne(['wellbeing', 'parkinsons', 'alzheimers']);
    const read = await resultOf(recordingId);
    const raw = await rawAnalysis(recordingId);
    expect(raw.analysis['communication_coach']).toBeNull();
    const pd = raw.analysis['parkinsons'] as { indicators: Record<string, unknown> };
    expect(Object.values(pd.indicators)).toContain(null);
    expect(read.outcomes.find((o) => o.type === 'parkinsons')?.status).toBe('completed');
    for (const [field, v] of Object.entries(pd.indicators))
      if (v === null) expect(valueOf(read, `pd_${field}`)).toBeUndefined();
    expect(flagsOf(read)).toEqual([]);
  });

  it("skewed_clock: the service's timestamps six minutes behind; stored as received", async () => {
    misbehave(['skewed_clock']);
    const receipt = await uploadOne();
    expect(Date.parse(receipt.uploadedAt!)).toBe(clock.now() - SIX_MINUTES);
    const raw = await rawAnalysis(receipt.recordingId);
    expect(Date.parse(raw.metadata['uploaded_at'] as string)).toBe(clock.now() - SIX_MINUTES);
    const read = await resultOf(receipt.recordingId);
    expect(read.uploadedAt).toBe(receipt.uploadedAt);
  });

  it('failing_polls: every poll of such a recording answers 503 with the Error shape, forever', async () => {
    misbehave(['failing_polls']);
    const { recordingId } = await uploadOne();
    for (const advance of [5_000, 60_000, 3_600_000]) {
      clock.advance(advance);
      const raw = await get(sb, 'v1.3', recordingId);
      expect(raw.status).toBe(503);
      expect(raw.json).toEqual({ error: { type: 'ServiceUnavailable', message: expect.any(String) } });
      expect(raw.headers.get('x-voicescope-simulated')).toBe('1');
      const read = await client.getAnalysis(recordingId);
      expect(read.ok).toBe(false);
      if (!read.ok) expect(read.error.kind).toBe('ServerError');
    }
    expect(sb.requestLog().at(-1)?.fault).toBe('misbehave:failing_polls');
  });

  it('late_completions: still processing at the five-minute timeout, completed after six minutes', async () => {
    misbehave(['late_completions']);
    const { recordingId } = await uploadOne(['wellbeing']);
    clock.advance(5 * 60_000 + 1_000);
    const early = await client.getAnalysis(recordingId);
    expect(early.ok && early.value.outcomes.find((o) => o.type === 'wellbeing')?.status).toBe('processing');
    clock.advance(60_000);
    const late = await client.getAnalysis(recordingId);
    expect(late.ok && late.value.outcomes.find((o) => o.type === 'wellbeing')?.status).toBe('completed');
  });

  it('unreadable_account: an account answer that cannot be read (the account exists); never two in a row', async () => {
    misbehave(['unreadable_account']);
    const post = () =>
      fetch(`${sb.url}/v1.3/accounts`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${KEYS.active}` },
      });
    const first = await post();
    expect(first.status).toBe(200);
    expect(first.headers.get('x-voicescope-simulated')).toBe('1');
    const unreadable = await first.text();
    expect(() => JSON.parse(unreadable) as unknown).toThrow();
    expect(JSON.parse(await (await post()).text())).toMatchObject({ account_id: expect.any(String) });
    expect(sb.requestLog().map((l) => l.fault)).toEqual(['misbehave:unreadable_account', null]);

    // The client, from the start again: the unreadable answer is an unknown outcome, never an exception,
    // and never repeated on its own (the account may exist: the researcher decides).
    sb.reset();
    misbehave(['unreadable_account']);
    const r = await client.createAccount();
    expect(r.ok).toBe(false);
    expect(sb.requestLog().filter((l) => l.path.endsWith('/accounts'))).toHaveLength(1);
  });

  it('unexpected_role: an account with a role other than "speaker" is kept, flagged', async () => {
    misbehave(['unexpected_role']);
    const r = await client.createAccount();
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(['Researcher', 'admin']).toContain(r.value.account.role);
    expect(r.value.account.flags?.map((f) => f.code)).toEqual(['role_not_in_enum']);
  });

  it('loose: all together, deterministic from the seed, every value still marked simulated', async () => {
    const rounds: string[][] = [];
    for (let round = 0; round < 2; round++) {
      sb.reset();
      sb.setScenario({ preset: 'loose', misbehave: { seed: 7 } });
      const ids: string[] = [];
      // Six recordings of the same audio, each its own upload, account and id: what misbehaves follows the
      // scenario's seed and the requests, and the speech in the audio is estimated once.
      for (let n = 0; n < 6; n++) ids.push((await uploadOne(ALL)).recordingId);
      clock.advance(10 * 60_000);
      for (const id of ids) {
        const raw = await get(sb, 'v1.3', id);
        expect(raw.headers.get('x-voicescope-simulated')).toBe('1');
        const read = await client.getAnalysis(id);
        if (raw.status !== 200) continue;
        expect((raw.json as { simulation: unknown }).simulation).toMatchObject({ simulated: true });
        expect(read.ok).toBe(true);
        if (read.ok) expect(read.value.source).toBe('simulated');
      }
      rounds.push(sb.requestLog().map((l) => `${l.endpoint} ${l.status} ${l.fault}`));
    }
    expect(rounds[0]).toEqual(rounds[1]);
    expect(rounds[0]!.some((l) => l.includes('misbehave:'))).toBe(true);
  });
});

describe('an upload over 50 MB', () => {
  it('is answered 413 with the Error shape while the body is still streaming (nothing held twice)', async () => {
    const size = 60_000_000;
    let produced = 0;
    const zeros = new Uint8Array(3 * 64 * 1024);
    const huge: AudioSource = {
      sizeBytes: size,
      async *open() {
        for (produced = 0; produced < size; produced += zeros.length)
          yield zeros.subarray(0, Math.min(zeros.length, size - produced));
      },
    };
    const out = await client.upload({
      accountId: await accountFor(),
      recordedAt: '2025-03-01T09:30:00Z',
      analyses: ['wellbeing'],
      audio: huge,
    });
    expect(out.status).toBe('rejected');
    if (out.status !== 'rejected') return;
    expect(out.error.kind).toBe('TooLarge');
    const logged = sb.requestLog().filter((l) => l.endpoint === 'upload');
    expect(logged.at(-1)?.status).toBe(413);
  }, 120_000);
});
