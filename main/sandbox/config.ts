/**
 * The sandbox's configuration: organisations (keys, access, enabled analyses, credit buckets, v1.2
 * count and limit), credits per upload, and the scenario. Also the default configuration, with its
 * documented demo key, and the named scenario presets.
 */
import { z } from 'zod';
import { ANALYSIS_TYPES, AnalysisType } from '../../shared/api/vocabulary';
import { applyScenarioPatch, Scenario, ScenarioName, ScenarioPatch, type ScenarioInput } from './scenario';
import { MISBEHAVIOURS } from './misbehave';

const Count = z.number().int().min(0);

export const ORG_ACCESS = ['active', 'suspended', 'not_provisioned'] as const;
export const OrgAccess = z.enum(ORG_ACCESS);
export type OrgAccess = z.infer<typeof OrgAccess>;

/** The v1.3 credit buckets, as `GET /v1.3/usage/recordings` shows them. */
export const CreditBuckets = z.object({
  trial_remaining: Count,
  trial_granted: Count,
  included_remaining: Count,
  included_granted: Count,
  purchased_remaining: Count,
  tier: z.string().nullable().default(null),
});
export type CreditBuckets = z.infer<typeof CreditBuckets>;

/** The v1.2 upload count of the billing period and its limit. */
export const V12Usage = z.object({ count: Count, limit: Count });
export type V12Usage = z.infer<typeof V12Usage>;

export const Organisation = z.object({
  id: z.string().regex(/^[A-Za-z0-9._-]{1,100}$/, 'letters, digits, dot, underscore or hyphen (1 to 100)'),
  name: z.string().min(1),
  /** Keys sent as `Authorization: Bearer <key>`; each belongs to exactly one organisation. */
  apiKeys: z.array(
    z.string().regex(/^[\x21-\x7e]{8,200}$/, 'printable ASCII without spaces, 8 to 200 characters'),
  ),
  access: OrgAccess.default('active'),
  enabledAnalyses: z.array(AnalysisType).default([...ANALYSIS_TYPES]),
  credits: CreditBuckets.default({
    trial_remaining: 10,
    trial_granted: 10,
    included_remaining: 100,
    included_granted: 100,
    purchased_remaining: 0,
    tier: 'sandbox',
  }),
  v12: V12Usage.default({ count: 0, limit: 110 }),
});
export type Organisation = z.infer<typeof Organisation>;
export type OrganisationInput = z.input<typeof Organisation>;

/** Checks what a single organisation's schema cannot: ids and keys are unique across organisations. */
export const organisationConflicts = (orgs: readonly Organisation[]): string[] => {
  const problems: string[] = [];
  const ids = new Set<string>();
  const keys = new Map<string, string>();
  for (const o of orgs) {
    if (ids.has(o.id)) problems.push(`organisation id "${o.id}" is used twice`);
    ids.add(o.id);
    for (const k of o.apiKeys) {
      const owner = keys.get(k);
      if (owner !== undefined && owner !== o.id)
        problems.push(`an API key of "${o.id}" is already used by "${owner}"`);
      keys.set(k, o.id);
    }
  }
  return problems;
};

export const SandboxConfig = z
  .object({
    organisations: z.array(Organisation).min(1),
    /** Credits one accepted upload consumes (the spec does not say; our choice is 1). */
    creditsPerUpload: Count.default(1),
    /** A preset name, or a patch with an optional `preset` to start from (default: the `default` preset). */
    scenario: z.union([ScenarioName, ScenarioPatch]).default('default'),
  })
  .superRefine((c, ctx) => {
    for (const message of organisationConflicts(c.organisations))
      ctx.addIssue({ code: 'custom', message, path: ['organisations'] });
  });
export type SandboxConfig = z.infer<typeof SandboxConfig>;
export type SandboxConfigInput = z.input<typeof SandboxConfig>;

/** The documented demo key of the default configuration (docs/sandbox.md). */
export const DEMO_API_KEY = 'vs-sandbox-demo-key-0001';
export const DEMO_ORGANISATION_ID = 'demo';

export const DEFAULT_CONFIG: SandboxConfig = SandboxConfig.parse({
  organisations: [{ id: DEMO_ORGANISATION_ID, name: 'Demo organisation', apiKeys: [DEMO_API_KEY] }],
  creditsPerUpload: 1,
  scenario: 'default',
});

const allTypes = <T>(v: T) => ({ wellbeing: v, parkinsons: v, alzheimers: v, communication_coach: v });

const PRESET_INPUTS: Record<ScenarioName, ScenarioInput> = {
  /** Demo pace: every analysis completes 20 s after upload; no faults. */
  default: { name: 'default', processingMs: allTypes(20_000) },
  /** For tests: processing takes about a second; no latency, no faults. */
  fast: {
    name: 'fast',
    processingMs: { wellbeing: 800, parkinsons: 1_000, alzheimers: 1_200, communication_coach: 900 },
  },
  /** Random 500s and dropped connections everywhere, some uploads lost after being charged, some analyses failing. */
  flaky: {
    name: 'flaky',
    latency: {
      ping: { fixedMs: 20, jitterMs: 200 },
      createAccount: { fixedMs: 50, jitterMs: 300 },
      upload: { fixedMs: 100, jitterMs: 600 },
      getAnalysis: { fixedMs: 50, jitterMs: 300 },
      getUsage: { fixedMs: 50, jitterMs: 300 },
    },
    faults: {
      ping: { http500: 0.1, dropBeforeProcessing: 0.05 },
      createAccount: { http500: 0.15, dropBeforeProcessing: 0.1 },
      upload: { http500: 0.15, dropBeforeProcessing: 0.1, dropAfterProcessing: 0.1 },
      getAnalysis: { http500: 0.15, dropBeforeProcessing: 0.1 },
      getUsage: { http500: 0.15, dropBeforeProcessing: 0.1 },
    },
    processingMs: { wellbeing: 10_000, parkinsons: 25_000, alzheimers: 40_000, communication_coach: 15_000 },
    failureRate: { wellbeing: 0, parkinsons: 0.3, alzheimers: 0.2, communication_coach: 0.1 },
  },
  /** v1.3 upload and analysis retrieval limited to 5 requests per 10 s per key, with Retry-After. */
  'rate-limited': {
    name: 'rate-limited',
    processingMs: allTypes(10_000),
    rateLimit: { maxRequests: 5, windowMs: 10_000, retryAfterSeconds: 10 },
  },
  /** A third of the successful answers of every endpoint break the wire schema, in every mode. */
  'broken-schema': {
    name: 'broken-schema',
    processingMs: allTypes(5_000),
    faults: {
      ping: { schemaBreak: 0.33 },
      createAccount: { schemaBreak: 0.33 },
      upload: { schemaBreak: 0.33 },
      getAnalysis: { schemaBreak: 0.33 },
      getUsage: { schemaBreak: 0.33 },
    },
  },
  /** Seconds of latency on every call and processing close to the spec's five minutes. */
  slow: {
    name: 'slow',
    latency: {
      ping: { fixedMs: 500, jitterMs: 1_000 },
      createAccount: { fixedMs: 1_500, jitterMs: 1_500 },
      upload: { fixedMs: 3_000, jitterMs: 3_000 },
      getAnalysis: { fixedMs: 1_500, jitterMs: 1_500 },
      getUsage: { fixedMs: 1_500, jitterMs: 1_500 },
    },
    processingMs: {
      wellbeing: 120_000,
      parkinsons: 200_000,
      alzheimers: 270_000,
      communication_coach: 150_000,
    },
  },
  /** Test pace, and every misbehaviour of a looser real service (misbehave.ts) switched on. */
  loose: {
    name: 'loose',
    processingMs: { wellbeing: 800, parkinsons: 1_000, alzheimers: 1_200, communication_coach: 900 },
    misbehave: { enabled: [...MISBEHAVIOURS] },
  },
};

export const SCENARIO_PRESETS: Readonly<Record<ScenarioName, Scenario>> = Object.fromEntries(
  Object.entries(PRESET_INPUTS).map(([k, v]) => [k, Scenario.parse(v)]),
) as Record<ScenarioName, Scenario>;

/** A preset name, or a patch applied to `base` (or to the preset the patch names). */
export const resolveScenario = (
  spec: ScenarioName | ScenarioPatch,
  base: Scenario = SCENARIO_PRESETS.default,
): Scenario => {
  if (typeof spec === 'string') return SCENARIO_PRESETS[spec];
  const { preset, ...rest } = ScenarioPatch.parse(spec);
  const start = preset !== undefined ? SCENARIO_PRESETS[preset] : base;
  return applyScenarioPatch(start, rest);
};
