/**
 * The sandbox's pure parts: schema-break modes against the client's schemas, rendering (v1.3 omission,
 * v1.2 null, whole-or-nothing objects), strict Base64, credits, diarisation shares, scenarios and
 * configuration.
 */
import { describe, expect, it } from 'vitest';
import { WIRE } from '../../../shared/api/wire';
import { Ping } from '../../../shared/api/wire-common';
import { API_VERSIONS } from '../../../shared/api/vocabulary';
import {
  DEFAULT_CONFIG,
  DEMO_API_KEY,
  resolveScenario,
  SandboxConfig,
  SCENARIO_PRESETS,
} from '../../../main/sandbox/config';
import { chargeUpload, uploadRefusal } from '../../../main/sandbox/credits';
import { RETAINED_SHARE_RANGE, retainedSpeakerFacts } from '../../../main/sandbox/diarisation';
import { completedObject } from '../../../main/sandbox/render';
import {
  applyScenarioPatch,
  SCENARIO_NAMES,
  SCHEMA_BREAK_MODES,
  seededRandom,
  ScenarioPatch,
} from '../../../main/sandbox/scenario';
import { breakAnswer, breaksSchema } from '../../../main/sandbox/schema-break';
import { decodedBase64Length, isStrictBase64 } from '../../../main/sandbox/upload-validation';
import type { AudioFacts } from '../../../main/sandbox/state';
import {
  accountV13,
  analysisV12,
  analysisV13,
  recordingV13,
  usageV12,
  usageV13,
} from '../../fixtures/wire-examples';

describe('schema breaks', () => {
  const bodies = {
    'v1.3': { analysis: analysisV13, recording: recordingV13, usage: usageV13, account: accountV13 },
    'v1.2': { analysis: analysisV12, recording: recordingV13, usage: usageV12, account: accountV13 },
  } as const;

  it.each(API_VERSIONS.flatMap((v) => SCHEMA_BREAK_MODES.map((m) => [v, m] as const)))(
    '%s analysis, mode %s: breaks the schema',
    (version, mode) => {
      const schema = WIRE[version].analysis;
      expect(breaksSchema(schema, JSON.stringify(bodies[version].analysis))).toBe(false);
      const broken = breakAnswer(bodies[version].analysis, schema, [mode], seededRandom(3));
      expect(broken?.mode).toBe(mode);
      expect(breaksSchema(schema, broken!.body)).toBe(true);
    },
  );

  it('modes that cannot break an answer are skipped (v1.2 Account has no required field, usage no status)', () => {
    expect(
      breakAnswer(bodies['v1.2'].account, WIRE['v1.2'].account, ['missing_field'], seededRandom(1)),
    ).toBeNull();
    expect(
      breakAnswer(
        bodies['v1.2'].account,
        WIRE['v1.2'].account,
        ['number_as_string', 'integer_unsafe'],
        seededRandom(1),
      ),
    ).toBeNull();
    expect(breakAnswer(usageV13, WIRE['v1.3'].usage, ['unknown_status'], seededRandom(1))).toBeNull();
    expect(
      breakAnswer(
        bodies['v1.2'].account,
        WIRE['v1.2'].account,
        ['missing_field', 'deep_garbage'],
        seededRandom(1),
      )?.mode,
    ).toBe('deep_garbage');
  });

  it('2^60 is only used where the schema wants an integer', () => {
    const broken = breakAnswer(usageV12, WIRE['v1.2'].usage, ['integer_unsafe'], seededRandom(9))!;
    expect(broken.body).toMatch(/1152921504606846976/);
    expect(breaksSchema(WIRE['v1.2'].usage, broken.body)).toBe(true);
  });

  it('every mode applicable to ping breaks it', () => {
    for (const mode of SCHEMA_BREAK_MODES) {
      const b = breakAnswer({ message: 'up' }, Ping, [mode], seededRandom(2));
      if (b) expect(breaksSchema(Ping, b.body)).toBe(true);
    }
  });
});

describe('rendering a completed analysis object', () => {
  const values = {
    ad_ttr: 0.5,
    ad_brunet_index: null,
    ad_content_ratio: 0.4,
    ad_mlu_words: 8,
    ad_clause_ratio: 1.2,
    ad_speech_rate: 140,
    ad_speech_rate_stdev: 20,
    ad_avg_pause_duration_ms: 500,
    ad_pause_filler_words_per_min: 2,
    ad_long_pause_ratio: 0.1,
    ad_cognition: null,
    ad_p_hc: 0.7,
    ad_p_mci: 0.2,
    ad_p_ad: 0.1,
  };

  it('v1.3 omits unavailable values and drops an object missing a required member (cognition without rating)', () => {
    const o = completedObject('v1.3', 'alzheimers', values);
    expect(o).toEqual({
      status: 'completed',
      indicators: {
        ttr: 0.5,
        content_ratio: 0.4,
        mlu_words: 8,
        clause_ratio: 1.2,
        speech_rate: 140,
        speech_rate_stdev: 20,
        avg_pause_duration_ms: 500,
        pause_filler_words_per_min: 2,
        long_pause_ratio: 0.1,
      },
    });
    expect(WIRE['v1.3'].analysis.shape.analysis.shape.alzheimers.safeParse(o).success).toBe(true);
  });

  it('v1.2 sends null for unavailable values', () => {
    const o = completedObject('v1.2', 'alzheimers', values) as {
      indicators: Record<string, unknown>;
      predictions: Record<string, unknown>;
    };
    expect(o.indicators['brunet_index']).toBeNull();
    expect(o.predictions).toEqual({
      hc_probability: 0.7,
      mci_probability: 0.2,
      ad_probability: 0.1,
      prediction: null,
    });
  });

  it('v1.3 communication coach: indicators and insights are whole or absent', () => {
    const cc = {
      cc_word_rate: 150,
      cc_fragment_rate: 12,
      cc_filler_words_rate: null,
      cc_rhythm: 70,
      cc_clarity: 80,
      cc_positiveness: 60,
      cc_speaking_rate: 75,
    };
    expect(completedObject('v1.3', 'communication_coach', cc)).toEqual({
      status: 'completed',
      insights: {
        rhythm: { score: 70 },
        clarity: { score: 80 },
        positiveness: { score: 60 },
        speaking_rate: { score: 75 },
      },
    });
  });

  it('v1.3 wellbeing drops a rating that is unavailable, and an insights object left empty', () => {
    expect(
      completedObject('v1.3', 'wellbeing', { wb_stress: null, wb_anxiety: null, wb_depression: null }),
    ).toEqual({ status: 'completed' });
    expect(
      completedObject('v1.2', 'wellbeing', { wb_stress: 'low', wb_anxiety: null, wb_depression: null }),
    ).toEqual({
      status: 'completed',
      predictions: { stress: { result: 'low' }, anxiety: { result: null }, depression: { result: null } },
    });
  });
});

describe('strict Base64', () => {
  it.each([
    ['', true],
    ['QUJD', true],
    ['QUI=', true],
    ['QQ==', true],
    ['QR==', false],
    ['QUJ=', false],
    ['QUJD\n', false],
    ['QU JD', false],
    ['QUJ', false],
    ['QUJD=', false],
    ['QQ=', false],
    ['-_-_', false],
    ['Q===', false],
    ['=QUJ', false],
    ['QQ==QUJD', false],
  ])('%j → %s', (s, valid) => {
    expect(isStrictBase64(s)).toBe(valid);
    if (valid) expect(decodedBase64Length(s)).toBe(Buffer.from(s, 'base64').length);
  });

  it('is fast on a 66 MB string', () => {
    const s = Buffer.alloc(50_000_000, 7).toString('base64');
    const t0 = performance.now();
    expect(isStrictBase64(s)).toBe(true);
    expect(performance.now() - t0).toBeLessThan(2_000);
  });
});

describe('credits', () => {
  const org = () =>
    SandboxConfig.parse({
      organisations: [
        {
          id: 'o',
          name: 'O',
          apiKeys: ['vs-key-00000'],
          credits: {
            trial_remaining: 1,
            trial_granted: 1,
            included_remaining: 1,
            included_granted: 1,
            purchased_remaining: 3,
            tier: null,
          },
          v12: { count: 0, limit: 1 },
        },
      ],
    }).organisations[0]!;

  it('charges trial, then included, then purchased, spilling over; never below zero; counts the upload', () => {
    const o = org();
    chargeUpload(o, 3);
    expect([
      o.credits.trial_remaining,
      o.credits.included_remaining,
      o.credits.purchased_remaining,
      o.v12.count,
    ]).toEqual([0, 0, 2, 1]);
    chargeUpload(o, 5);
    expect([o.credits.purchased_remaining, o.v12.count]).toEqual([0, 2]);
  });

  it('refuses v1.3 on credits and v1.2 on count', () => {
    const o = org();
    expect(uploadRefusal(o, 'v1.3', 5)).toBeNull();
    expect(uploadRefusal(o, 'v1.3', 6)).toMatch(/5 credits remaining, an upload needs 6/);
    expect(uploadRefusal(o, 'v1.2', 1)).toBeNull();
    o.v12.count = 1;
    expect(uploadRefusal(o, 'v1.2', 1)).toMatch(/all 1 uploads/);
  });
});

describe('diarisation stand-in', () => {
  const facts: AudioFacts = {
    format: 'wav',
    sizeBytes: 1_000_000,
    channels: 1,
    sampleRateHz: 16_000,
    bitRateBps: 256_000,
    durationSeconds: 100,
    speechSeconds: 80,
    speechSource: 'vad',
  };
  it('keeps 55–90 % of duration and speech, deterministically, speech never above duration', () => {
    for (let i = 0; i < 200; i++) {
      const sha = Buffer.from(String(i).padStart(32, '0')).toString('hex').slice(0, 64).padEnd(64, 'f');
      const r = retainedSpeakerFacts(facts, sha);
      expect(r.durationSeconds / 100).toBeGreaterThanOrEqual(RETAINED_SHARE_RANGE[0] - 1e-3);
      expect(r.durationSeconds / 100).toBeLessThanOrEqual(RETAINED_SHARE_RANGE[1] + 1e-3);
      expect(r.speechSeconds).toBeLessThanOrEqual(r.durationSeconds);
      expect(retainedSpeakerFacts(facts, sha)).toEqual(r);
    }
  });
});

describe('scenarios and configuration', () => {
  it('the PRNG is deterministic per seed and uniform enough', () => {
    const a = seededRandom(5),
      b = seededRandom(5),
      c = seededRandom(6);
    const xs = Array.from({ length: 1000 }, () => a());
    expect(Array.from({ length: 1000 }, () => b())).toEqual(xs);
    expect(c()).not.toBe(xs[0]);
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(mean).toBeGreaterThan(0.45);
    expect(mean).toBeLessThan(0.55);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
  });

  it('every preset parses; fast processes in about a second; default in 20 s', () => {
    expect(Object.keys(SCENARIO_PRESETS).sort()).toEqual([...SCENARIO_NAMES].sort());
    expect(Math.max(...Object.values(SCENARIO_PRESETS.fast.processingMs))).toBeLessThanOrEqual(1_500);
    expect(Object.values(SCENARIO_PRESETS.default.processingMs)).toEqual([20_000, 20_000, 20_000, 20_000]);
    expect(SCENARIO_PRESETS['rate-limited'].rateLimit).not.toBeNull();
    expect(SCENARIO_PRESETS.flaky.faults.upload?.dropAfterProcessing).toBeGreaterThan(0);
  });

  it('patches merge per key and can start from a preset; unknown fields are refused', () => {
    const s = applyScenarioPatch(SCENARIO_PRESETS.fast, {
      processingMs: { parkinsons: 5 },
      faults: { ping: { http500: 1 } },
    });
    expect(s.processingMs).toEqual({ ...SCENARIO_PRESETS.fast.processingMs, parkinsons: 5 });
    expect(s.faults.ping).toMatchObject({
      http500: 1,
      dropBeforeProcessing: 0,
      schemaBreakModes: [...SCHEMA_BREAK_MODES],
    });
    expect(resolveScenario({ preset: 'slow', seed: 3 })).toMatchObject({ name: 'slow', seed: 3 });
    expect(ScenarioPatch.safeParse({ procesingMs: {} }).success).toBe(false);
  });

  it('the default configuration has one active organisation with the demo key; keys are unique across organisations', () => {
    expect(DEFAULT_CONFIG.organisations).toHaveLength(1);
    expect(DEFAULT_CONFIG.organisations[0]).toMatchObject({ access: 'active', apiKeys: [DEMO_API_KEY] });
    const dup = SandboxConfig.safeParse({
      organisations: [
        { id: 'a', name: 'A', apiKeys: ['vs-same-key-1'] },
        { id: 'b', name: 'B', apiKeys: ['vs-same-key-1'] },
      ],
    });
    expect(dup.success).toBe(false);
  });
});
