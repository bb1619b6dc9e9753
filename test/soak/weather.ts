/**
 * The soak's weather: the sandbox's scenario changes every few seconds to a random spell of faults
 * (500s, connections dropped before or after processing, answers that break the schema, slow answers
 * beyond the client's timeouts, 429 with Retry-After) or calm, every kind in every round of eleven. Processing times and failure rates stay
 * the same all along, so each recording's analyses end the same way whenever it was uploaded.
 */
import type { ScenarioPatch } from '../../main/sandbox/scenario';

export const SPELLS = [
  'calm',
  'http500',
  'drop_before',
  'drop_after',
  'schema_break',
  'slow',
  'rate_limited',
  'mixed',
] as const;
export type Spell = (typeof SPELLS)[number];

/** Never changes: how long each type takes and which share of recordings (by audio) fails it. */
const STEADY: ScenarioPatch = {
  preset: 'fast',
  processingMs: { wellbeing: 600, parkinsons: 900, alzheimers: 1_200 },
  failureRate: { parkinsons: 0.15, alzheimers: 0.1 },
};

const spellFaults = (s: Spell): ScenarioPatch => {
  switch (s) {
    case 'calm':
      return {};
    case 'http500':
      return {
        faults: { upload: { http500: 0.15 }, getAnalysis: { http500: 0.25 }, getUsage: { http500: 0.3 } },
      };
    case 'drop_before':
      return {
        faults: { upload: { dropBeforeProcessing: 0.1 }, getAnalysis: { dropBeforeProcessing: 0.2 } },
      };
    case 'drop_after':
      return { faults: { upload: { dropAfterProcessing: 0.15 } } };
    case 'schema_break':
      return {
        faults: {
          upload: { schemaBreak: 0.1 },
          getAnalysis: { schemaBreak: 0.3 },
          getUsage: { schemaBreak: 0.3 },
        },
      };
    case 'slow':
      return {
        latency: {
          upload: { fixedMs: 200, jitterMs: 2_000 },
          getAnalysis: { fixedMs: 100, jitterMs: 1_600 },
          getUsage: { fixedMs: 100, jitterMs: 1_600 },
        },
      };
    case 'rate_limited':
      return { rateLimit: { maxRequests: 8, windowMs: 1_000, retryAfterSeconds: 1 } };
    case 'mixed':
      return {
        latency: { upload: { fixedMs: 0, jitterMs: 600 }, getAnalysis: { fixedMs: 0, jitterMs: 400 } },
        faults: {
          upload: { http500: 0.04, dropBeforeProcessing: 0.03, dropAfterProcessing: 0.04, schemaBreak: 0.03 },
          getAnalysis: { http500: 0.08, dropBeforeProcessing: 0.05, schemaBreak: 0.08 },
        },
        rateLimit: { maxRequests: 20, windowMs: 1_000, retryAfterSeconds: 1 },
      };
  }
};

/** The scenario for one spell, with its own seed for the sandbox's fault generator. */
export const scenarioFor = (spell: Spell, seed: number): ScenarioPatch => ({
  ...STEADY,
  ...spellFaults(spell),
  seed,
});

export const calmScenario = (): ScenarioPatch => ({ ...STEADY, seed: 1 });

/**
 * The spells in a random order, dealt from a bag that holds every kind of fault once and three calm
 * spells, so that every kind of fault comes up in every eleven spells, in an order nobody chose.
 */
export const spellDealer = (random: () => number): (() => Spell) => {
  let bag: Spell[] = [];
  return () => {
    if (bag.length === 0) {
      bag = [...SPELLS.filter((s) => s !== 'calm'), 'calm', 'calm', 'calm'];
      for (let i = bag.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [bag[i], bag[j]] = [bag[j]!, bag[i]!];
      }
    }
    return bag.pop()!;
  };
};
