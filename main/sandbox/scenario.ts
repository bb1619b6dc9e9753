/**
 * Scenario controls of the sandbox: latency, injected faults, processing time and failure rate per
 * analysis type, the rate limit and the minimum sample rate. Every random decision comes from one
 * seeded generator, so a scenario replays the same faults in the same order.
 */
import { z } from 'zod';
import { ENDPOINTS, type Endpoint } from '../../shared/api/api-error';
import { LIMITS, type AnalysisType } from '../../shared/api/vocabulary';
import { SANDBOX_SCENARIOS } from '../../shared/contract/sandbox.contract';
import { Misbehave, MisbehaviourName, MISBEHAVIOURS } from './misbehave';

export { ENDPOINTS, type Endpoint };

const Probability = z.number().min(0).max(1);
const Millis = z.number().int().min(0);

export const Latency = z.object({
  fixedMs: Millis.default(0),
  /** A uniform extra delay in [0, jitterMs). */
  jitterMs: Millis.default(0),
});
export type Latency = z.infer<typeof Latency>;

/** Ways a successful answer can be made to break the wire schema. */
export const SCHEMA_BREAK_MODES = [
  /** A field the schema requires is removed. */
  'missing_field',
  /** A number is sent as a string. */
  'number_as_string',
  /** A number is written as `1e400` (JSON.parse reads Infinity). */
  'integer_overflow',
  /** An integer is written as 2^60, beyond JavaScript's exact integers. */
  'integer_unsafe',
  /** The JSON text is cut off halfway. */
  'truncated_json',
  /** An HTML page (a proxy's error page) with status 200. */
  'html_body',
  /** An analysis `status` outside the enum. */
  'unknown_status',
  /** A field replaced by deeply nested arrays and objects. */
  'deep_garbage',
] as const;
export const SchemaBreakMode = z.enum(SCHEMA_BREAK_MODES);
export type SchemaBreakMode = z.infer<typeof SchemaBreakMode>;

export const FaultRates = z.object({
  /** HTTP 500 before the request is processed (nothing is created or charged). */
  http500: Probability.default(0),
  /** The connection is destroyed before the request is processed (nothing is created or charged). */
  dropBeforeProcessing: Probability.default(0),
  /** Upload only: the upload is accepted and charged, then the connection is destroyed without an answer. */
  dropAfterProcessing: Probability.default(0),
  /** A successful answer is replaced by one that breaks the wire schema. */
  schemaBreak: Probability.default(0),
  /** Modes to pick from (uniformly, among those that apply to the answer); default all. */
  schemaBreakModes: z
    .array(SchemaBreakMode)
    .min(1)
    .default([...SCHEMA_BREAK_MODES]),
});
export type FaultRates = z.infer<typeof FaultRates>;

export const RateLimit = z.object({
  maxRequests: z.number().int().min(1),
  windowMs: z.number().int().min(1),
  /** Sent as `Retry-After` (seconds) on 429 when set; null or absent: no header. */
  retryAfterSeconds: z.number().int().min(0).nullable().default(null),
});
export type RateLimit = z.infer<typeof RateLimit>;

const perType = <T extends z.ZodType>(t: T) =>
  z.object({
    wellbeing: t,
    parkinsons: t,
    alzheimers: t,
    communication_coach: t,
  });

const endpointMap = <T extends z.ZodType>(t: T) =>
  z.object({
    ping: t.optional(),
    createAccount: t.optional(),
    upload: t.optional(),
    getAnalysis: t.optional(),
    getUsage: t.optional(),
  });

const DEFAULT_PROCESSING_MS = 20_000;

export const Scenario = z.object({
  /** Name of the preset it started from, for display only. */
  name: z.string().default('custom'),
  latency: endpointMap(Latency).default({}),
  faults: endpointMap(FaultRates).default({}),
  /** Time from upload to the end of processing, per analysis type. */
  processingMs: perType(Millis).default({
    wellbeing: DEFAULT_PROCESSING_MS,
    parkinsons: DEFAULT_PROCESSING_MS,
    alzheimers: DEFAULT_PROCESSING_MS,
    communication_coach: DEFAULT_PROCESSING_MS,
  }),
  /** Share of recordings whose analysis of that type ends in `error` (decided from the audio's hash). */
  failureRate: perType(Probability).default({
    wellbeing: 0,
    parkinsons: 0,
    alzheimers: 0,
    communication_coach: 0,
  }),
  /** Off when null. Per API key, v1.3 upload and analysis retrieval only (one counter for both). */
  rateLimit: RateLimit.nullable().default(null),
  minSampleRateHz: z.number().int().min(1).default(LIMITS.minSampleRateHzLenient),
  seed: z.number().int().default(1),
  /** The misbehaving mode (misbehave.ts): answers as a looser real service may give them. Off by default. */
  misbehave: Misbehave.prefault({}),
});
export type Scenario = z.infer<typeof Scenario>;
export type ScenarioInput = z.input<typeof Scenario>;

/** The presets' names: the contract's list, which the settings screen offers too. */
export const SCENARIO_NAMES = SANDBOX_SCENARIOS;
export const ScenarioName = z.enum(SCENARIO_NAMES);
export type ScenarioName = z.infer<typeof ScenarioName>;

/** A partial change (optionally from a preset): top-level members replace, except `processingMs`, `failureRate`, `latency`, `faults` and `misbehave`, which merge per key. */
export const ScenarioPatch = z
  .object({
    /** Start from this preset instead of the current scenario. */
    preset: ScenarioName.optional(),
    name: z.string().optional(),
    latency: endpointMap(Latency).optional(),
    faults: endpointMap(FaultRates).optional(),
    processingMs: perType(Millis).partial().optional(),
    failureRate: perType(Probability).partial().optional(),
    rateLimit: RateLimit.nullable().optional(),
    minSampleRateHz: z.number().int().min(1).optional(),
    seed: z.number().int().optional(),
    /** `enabled` may also be the word `loose` (every misbehaviour). */
    misbehave: z
      .object({
        enabled: z.union([z.array(MisbehaviourName), z.literal('loose')]).optional(),
        seed: z.number().int().optional(),
        share: z.number().min(0).max(1).optional(),
        clockSkewMinutes: z.number().optional(),
        failingPollShare: z.number().min(0).max(1).optional(),
        lateCompletionShare: z.number().min(0).max(1).optional(),
        lateCompletionMs: z.number().int().min(0).optional(),
        accountShare: z.number().min(0).max(1).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type ScenarioPatch = z.input<typeof ScenarioPatch>;

const dropUndefined = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

/** Applies a patch to `base` (the preset, when the patch names one, is the caller's to resolve). */
export const applyScenarioPatch = (base: Scenario, patchInput: ScenarioPatch): Scenario => {
  const patch = ScenarioPatch.parse(patchInput);
  return Scenario.parse({
    ...base,
    ...dropUndefined({
      name: patch.name,
      rateLimit: patch.rateLimit,
      minSampleRateHz: patch.minSampleRateHz,
      seed: patch.seed,
    }),
    latency: { ...base.latency, ...dropUndefined(patch.latency ?? {}) },
    faults: { ...base.faults, ...dropUndefined(patch.faults ?? {}) },
    processingMs: { ...base.processingMs, ...dropUndefined(patch.processingMs ?? {}) },
    failureRate: { ...base.failureRate, ...dropUndefined(patch.failureRate ?? {}) },
    misbehave: {
      ...base.misbehave,
      ...dropUndefined({
        ...patch.misbehave,
        enabled: patch.misbehave?.enabled === 'loose' ? [...MISBEHAVIOURS] : patch.misbehave?.enabled,
      }),
    },
  });
};

/** sfc32, seeded through splitmix32: small, fast and good enough for fault injection. */
export const seededRandom = (seed: number): (() => number) => {
  let s = seed >>> 0;
  const split = (): number => {
    s = (s + 0x9e3779b9) >>> 0;
    let z32 = s;
    z32 = Math.imul(z32 ^ (z32 >>> 16), 0x85ebca6b) >>> 0;
    z32 = Math.imul(z32 ^ (z32 >>> 13), 0xc2b2ae35) >>> 0;
    return (z32 ^ (z32 >>> 16)) >>> 0;
  };
  let a = split(),
    b = split(),
    c = split(),
    d = split();
  return () => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t / 4294967296;
  };
};

export type PreFault = 'http_500' | 'dropped_before_processing';

/** The scenario's decisions for one request, drawn from the shared seeded generator. */
export class FaultInjector {
  private random: () => number;

  constructor(private scenario: Scenario) {
    this.random = seededRandom(scenario.seed);
  }

  /** Replaces the scenario and restarts the generator from its seed. */
  reset(scenario: Scenario): void {
    this.scenario = scenario;
    this.random = seededRandom(scenario.seed);
  }

  get current(): Scenario {
    return this.scenario;
  }

  next(): number {
    return this.random();
  }

  private roll(p: number): boolean {
    if (p <= 0) return false;
    if (p >= 1) return true;
    return this.random() < p;
  }

  latencyMs(endpoint: Endpoint): number {
    const l = this.scenario.latency[endpoint];
    if (!l || (l.fixedMs === 0 && l.jitterMs === 0)) return 0;
    return l.fixedMs + (l.jitterMs > 0 ? Math.floor(this.random() * l.jitterMs) : 0);
  }

  preFault(endpoint: Endpoint): PreFault | null {
    const f = this.scenario.faults[endpoint];
    if (!f) return null;
    if (this.roll(f.http500)) return 'http_500';
    if (this.roll(f.dropBeforeProcessing)) return 'dropped_before_processing';
    return null;
  }

  dropAfterProcessing(endpoint: Endpoint): boolean {
    const f = this.scenario.faults[endpoint];
    return endpoint === 'upload' && f !== undefined && this.roll(f.dropAfterProcessing);
  }

  /** The modes to try, in a random order, if this answer is to break the schema; null if not. */
  schemaBreak(endpoint: Endpoint): SchemaBreakMode[] | null {
    const f = this.scenario.faults[endpoint];
    if (!f || !this.roll(f.schemaBreak)) return null;
    const modes = [...new Set(f.schemaBreakModes)];
    for (let i = modes.length - 1; i > 0; i--) {
      const j = Math.floor(this.random() * (i + 1));
      [modes[i], modes[j]] = [modes[j]!, modes[i]!];
    }
    return modes;
  }

  processingMs(type: AnalysisType): number {
    return this.scenario.processingMs[type];
  }

  failureRate(type: AnalysisType): number {
    return this.scenario.failureRate[type];
  }
}
