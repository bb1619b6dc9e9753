import { describe, expect, it } from 'vitest';
import { MEASURES, measuresOf } from '../../../shared/api/measures';
import { analysisToDomain, usageToDomain } from '../../../shared/api/to-domain';
import { ANALYSIS_TYPES_BY_VERSION, type ApiVersion } from '../../../shared/api/vocabulary';
import { WIRE } from '../../../shared/api/wire';
import {
  accountV13,
  analysisV12,
  analysisV13,
  errorV13,
  recordingV13,
  usageV12,
  usageV13,
} from '../../fixtures/wire-examples';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
const clone = <T>(v: T): T => structuredClone(v);
const EXAMPLES: Record<ApiVersion, Json> = { 'v1.3': analysisV13 as Json, 'v1.2': analysisV12 as Json };

/** Every leaf (primitive) path of a JSON value. */
const leaves = (v: Json, path: string[] = []): string[][] =>
  v !== null && typeof v === 'object' && !Array.isArray(v)
    ? Object.entries(v).flatMap(([k, c]) => leaves(c, [...path, k]))
    : [path];

const setAt = (root: Json, path: string[], value: Json | undefined): Json => {
  const copy = clone(root);
  let node = copy as Record<string, Json>;
  for (const p of path.slice(0, -1)) node = node[p] as Record<string, Json>;
  const last = path[path.length - 1]!;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
};

const REQUIRED_METADATA = ['recording_id', 'account_id', 'recorded_at', 'audio_duration_seconds'];
/** Members the spec marks required inside v1.3 objects. */
const requiredInV13 = (path: string[]): boolean =>
  (path[0] === 'metadata' && REQUIRED_METADATA.includes(path[1]!)) ||
  path[path.length - 1] === 'status' ||
  (path[1] === 'wellbeing' && path[path.length - 1] === 'rating') ||
  (path[1] === 'alzheimers' && path.join('.').endsWith('cognition.rating')) ||
  path[1] === 'communication_coach';

describe('wire schemas accept what the specification allows', () => {
  it.each(['v1.3', 'v1.2'] as const)('%s: a complete analysis response parses', (v) =>
    expect(WIRE[v].analysis.safeParse(EXAMPLES[v]).success).toBe(true),
  );

  it('Recording, Usage, Account and Error of v1.3 parse; v1.2 accepts an empty Recording', () => {
    expect(WIRE['v1.3'].recording.safeParse(recordingV13).success).toBe(true);
    expect(WIRE['v1.2'].recording.safeParse({}).success).toBe(true);
    expect(
      WIRE['v1.2'].recording.safeParse(Object.fromEntries(Object.keys(recordingV13).map((k) => [k, null])))
        .success,
    ).toBe(true);
    expect(WIRE['v1.3'].usage.safeParse(usageV13).success).toBe(true);
    expect(WIRE['v1.3'].usage.safeParse({ ...usageV13, tier: null }).success).toBe(true);
    expect(WIRE['v1.3'].usage.safeParse({ ...usageV13, tier: undefined }).success).toBe(true);
    expect(WIRE['v1.2'].usage.safeParse(usageV12).success).toBe(true);
    expect(WIRE['v1.3'].account.safeParse(accountV13).success).toBe(true);
    expect(WIRE['v1.2'].account.safeParse({}).success).toBe(true);
    expect(WIRE['v1.3'].error.safeParse(errorV13).success).toBe(true);
    expect(WIRE['v1.2'].error.safeParse({}).success).toBe(true);
  });

  it('v1.3 requires every Recording field; v1.2 does not', () => {
    for (const k of Object.keys(recordingV13)) {
      const { [k]: _, ...rest } = recordingV13 as Record<string, unknown>;
      expect(WIRE['v1.3'].recording.safeParse(rest).success, k).toBe(false);
      expect(WIRE['v1.2'].recording.safeParse(rest).success, k).toBe(true);
    }
  });

  it.each(['v1.3', 'v1.2'] as const)(
    '%s: every optional leaf may be omitted, and the value becomes "not provided"',
    (v) => {
      for (const path of leaves(EXAMPLES[v])) {
        if (v === 'v1.3' && requiredInV13(path)) continue;
        if (
          v === 'v1.2' &&
          (path[path.length - 1] === 'status' ||
            (path[0] === 'metadata' && REQUIRED_METADATA.includes(path[1]!)))
        )
          continue;
        const variant = setAt(EXAMPLES[v], path, undefined);
        const parsed = WIRE[v].analysis.safeParse(variant);
        expect(parsed.success, path.join('.')).toBe(true);
      }
    },
  );

  it.each(['v1.3', 'v1.2'] as const)(
    '%s: every optional leaf may be null (v1.2 nullable; v1.3 clients tolerate null)',
    (v) => {
      for (const path of leaves(EXAMPLES[v])) {
        if (v === 'v1.3' && requiredInV13(path)) continue;
        if (
          path[path.length - 1] === 'status' ||
          (path[0] === 'metadata' && REQUIRED_METADATA.includes(path[1]!))
        )
          continue;
        expect(WIRE[v].analysis.safeParse(setAt(EXAMPLES[v], path, null)).success, path.join('.')).toBe(true);
      }
    },
  );

  it.each(['v1.3', 'v1.2'] as const)('%s: unknown extra fields anywhere are tolerated', (v) => {
    const withExtras = clone(EXAMPLES[v]) as Record<string, Json>;
    const addExtras = (o: Json): void => {
      if (o && typeof o === 'object' && !Array.isArray(o)) {
        for (const c of Object.values(o)) addExtras(c);
        (o as Record<string, Json>)['x_future_field'] = { nested: [1, 'two'] };
      }
    };
    addExtras(withExtras);
    expect(WIRE[v].analysis.safeParse(withExtras).success).toBe(true);
  });

  it('unknown error types are kept verbatim', () => {
    const parsed = WIRE['v1.3'].error.parse({ error: { type: 'BrandNewType', message: 'something new' } });
    expect(parsed.error.type).toBe('BrandNewType');
  });
});

describe('wire schemas refuse what would be silently wrong data, naming the path', () => {
  it.each(['v1.3', 'v1.2'] as const)('%s: a wrong type at any leaf fails at that leaf', (v) => {
    for (const path of leaves(EXAMPLES[v])) {
      const original = path.reduce<Json>((n, p) => (n as Record<string, Json>)[p]!, EXAMPLES[v]);
      const wrong: Json = typeof original === 'number' ? String(original) : 12345;
      const parsed = WIRE[v].analysis.safeParse(setAt(EXAMPLES[v], path, wrong));
      expect(parsed.success, path.join('.')).toBe(false);
      if (!parsed.success) expect(parsed.error.issues[0]!.path.map(String)).toEqual(path);
    }
  });

  it('integers must be integers and safe; fractions or 2^60 in an integer field fail', () => {
    expect(
      WIRE['v1.3'].analysis.safeParse(
        setAt(analysisV13 as Json, ['analysis', 'parkinsons', 'indicators', 'hnr'], 17.5),
      ).success,
    ).toBe(false);
    expect(
      WIRE['v1.3'].analysis.safeParse(
        setAt(analysisV13 as Json, ['analysis', 'parkinsons', 'indicators', 'hnr'], 2 ** 60),
      ).success,
    ).toBe(false);
  });

  it('unknown status and rating values fail', () => {
    expect(
      WIRE['v1.3'].analysis.safeParse(
        setAt(analysisV13 as Json, ['analysis', 'wellbeing', 'status'], 'queued'),
      ).success,
    ).toBe(false);
    expect(
      WIRE['v1.3'].analysis.safeParse(
        setAt(analysisV13 as Json, ['analysis', 'wellbeing', 'insights', 'stress', 'rating'], 'extreme'),
      ).success,
    ).toBe(false);
  });

  it('communication coach scores outside 0 to 100 fail', () =>
    expect(
      WIRE['v1.3'].analysis.safeParse(
        setAt(analysisV13 as Json, ['analysis', 'communication_coach', 'insights', 'clarity', 'score'], 101),
      ).success,
    ).toBe(false));

  it('v1.2 has no communication_coach analysis type on upload', () => {
    const body = {
      account_id: '7d9e6f5a-1b2c-4d3e-9f8a-7b6c5d4e3f2a',
      recorded_at: '2026-01-01T00:00:00Z',
      audio: 'AAAA',
    };
    expect(WIRE['v1.2'].uploadRequest.safeParse({ ...body, analysis: ['communication_coach'] }).success).toBe(
      false,
    );
    expect(WIRE['v1.3'].uploadRequest.safeParse({ ...body, analysis: ['communication_coach'] }).success).toBe(
      true,
    );
    expect(WIRE['v1.3'].uploadRequest.safeParse({ ...body, analysis: [] }).success).toBe(false);
  });
});

describe('the measure catalogue and the schemas agree', () => {
  it.each(['v1.3', 'v1.2'] as const)(
    '%s: every analysis leaf is a catalogue measure and every catalogue path is a leaf',
    (v) => {
      const analysisLeaves = leaves(EXAMPLES[v]).filter(
        (p) => p[0] === 'analysis' && p[p.length - 1] !== 'status',
      );
      const catalogue = MEASURES.filter((m) => m.path[v]).map((m) =>
        ['analysis', m.analysis, ...m.path[v]!].join('.'),
      );
      expect(new Set(analysisLeaves.map((p) => p.join('.')))).toEqual(new Set(catalogue));
    },
  );

  it('keys are unique, SPSS/SAS-safe and at most 32 characters', () => {
    const keys = MEASURES.map((m) => m.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const k of keys) expect(k).toMatch(/^[a-z][a-z0-9_]{0,31}$/);
  });

  it('communication_coach measures exist only in v1.3', () => {
    for (const m of measuresOf('communication_coach')) expect(Object.keys(m.path)).toEqual(['v1.3']);
    expect(ANALYSIS_TYPES_BY_VERSION['v1.2']).not.toContain('communication_coach');
  });
});

describe('both versions map into the same domain values', () => {
  it('equivalent v1.3 and v1.2 responses give identical measures for the shared types', () => {
    const a = analysisToDomain('v1.3', WIRE['v1.3'].analysis.parse(analysisV13), false);
    const b = analysisToDomain('v1.2', WIRE['v1.2'].analysis.parse(analysisV12), false);
    for (const type of ['wellbeing', 'parkinsons', 'alzheimers'] as const) {
      const va = a.outcomes.find((o) => o.type === type)!.values;
      const vb = b.outcomes.find((o) => o.type === type)!.values;
      expect(vb).toEqual(va);
      expect(Object.keys(va)).toHaveLength(measuresOf(type).length);
    }
    expect(a.outcomes.map((o) => o.type)).toEqual([
      'wellbeing',
      'parkinsons',
      'alzheimers',
      'communication_coach',
    ]);
    expect(a.outcomes.find((o) => o.type === 'communication_coach')!.values['cc_clarity']).toBe(88);
    expect(a.source).toBe('service');
  });

  it('null (v1.2) and omitted (v1.3) both become "not provided", never 0', () => {
    const v12 = setAt(analysisV12 as Json, ['analysis', 'parkinsons', 'indicators', 'hnr'], null);
    const v13 = setAt(analysisV13 as Json, ['analysis', 'parkinsons', 'indicators', 'hnr'], undefined);
    const a = analysisToDomain('v1.2', WIRE['v1.2'].analysis.parse(v12), false);
    const b = analysisToDomain('v1.3', WIRE['v1.3'].analysis.parse(v13), false);
    expect(a.outcomes[1]!.values).not.toHaveProperty('pd_hnr');
    expect(b.outcomes[1]!.values).not.toHaveProperty('pd_hnr');
    expect(a.audio.speechDurationSeconds).toBe(47.25);
  });

  it('the simulation marker or header marks results simulated', () => {
    const marked = { ...analysisV13, simulation: { simulated: true, generator: 'voicescope-sandbox/sim-1' } };
    expect(analysisToDomain('v1.3', WIRE['v1.3'].analysis.parse(marked), false).source).toBe('simulated');
    expect(analysisToDomain('v1.3', WIRE['v1.3'].analysis.parse(analysisV13), true).source).toBe('simulated');
    const garbled = { ...analysisV13, simulation: 'yes' };
    expect(WIRE['v1.3'].analysis.safeParse(garbled).success).toBe(true);
  });

  it('usage: credit buckets and count/limit both give uploads remaining', () => {
    expect(usageToDomain('v1.3', usageV13).uploadsRemaining).toBe(128);
    expect(usageToDomain('v1.2', usageV12)).toEqual({
      apiVersion: 'v1.2',
      uploadsRemaining: 460,
      detail: { kind: 'upload_count', used: 40, limit: 500 },
      flags: [],
    });
    expect(usageToDomain('v1.2', { count: 600, limit: 500 }).uploadsRemaining).toBe(0);
  });
});
