/**
 * The sandbox's misbehaving mode: it answers the way a looser real service may, so researchers can
 * rehearse with it and the tests can prove that the workstation keeps every readable value and flags
 * what is odd. Each misbehaviour can be switched on alone, or all together (`loose`).
 *
 * Every decision is deterministic: drawn from the misbehaviour seed and the recording (the audio's
 * SHA-256 and the recording date) or the account's sequence number, never from the request order, so
 * the same files give the same odd answers on every run. Everything stays marked simulated (the
 * `simulation` member and the `X-Voicescope-Simulated` header).
 */
import { z } from 'zod';
import { measuresOf, type MeasureDef } from '../../shared/api/measures';
import type { AnalysisType, ApiVersion } from '../../shared/api/vocabulary';
import { SANDBOX_MISBEHAVIOURS } from '../../shared/contract/sandbox.contract';
import { hashUniform, Rng } from './sim-random';

/**
 * The misbehaviours (their vocabulary is in the sandbox contract):
 * - `free_string_ratings`: ratings and classes in another letter case ("High", "MCI") or words the
 *   specification does not list ("elevated");
 * - `out_of_range`: a score outside 0–100 (a communication-coach score of 101 or -3, a Parkinson's score of
 *   250) and a probability outside 0–1;
 * - `probabilities_not_summing`: the three cognition probabilities add up to 2.7, or to about half of 1;
 * - `fractional_integers`: whole-number indicators and scores sent as fractions (142.37 words/min);
 * - `extra_fields`: members the specification does not list (metadata, analysis objects, receipt, account)
 *   and an unknown analysis type, `voice_age`;
 * - `nulls`: optional indicators sent as null; in v1.3 an unrequested type as null, not `not_requested`;
 * - `skewed_clock`: `uploaded_at` in receipts and metadata shifted by `clockSkewMinutes` (default -6);
 * - `failing_polls`: some recordings' analysis answers 503 on every poll, forever;
 * - `late_completions`: some recordings complete only `lateCompletionMs` after upload (default six
 *   minutes, past the specification's five-minute timeout);
 * - `unreadable_account`: some account answers are cut-off JSON, although the account was created (never
 *   two in a row, so one retry gets an account);
 * - `unexpected_role`: some account answers carry `organisation_role` "Researcher" or "admin".
 */
export const MISBEHAVIOURS = SANDBOX_MISBEHAVIOURS;
export const MisbehaviourName = z.enum(MISBEHAVIOURS);
export type MisbehaviourName = z.infer<typeof MisbehaviourName>;

/** The preset that switches every misbehaviour on. */
export const LOOSE = 'loose';

const Share = z.number().min(0).max(1);

export const Misbehave = z.object({
  /** The misbehaviours switched on; empty: the sandbox follows the specification. */
  enabled: z.array(MisbehaviourName).default([]),
  /** Seed of every misbehaving decision and value. */
  seed: z.number().int().default(1),
  /** Share of recordings whose answers carry each value misbehaviour (ratings, ranges, sums, fractions, nulls). */
  share: Share.default(0.5),
  /** How far the service's clock is off, in minutes (negative: behind). */
  clockSkewMinutes: z
    .number()
    .min(-24 * 60)
    .max(24 * 60)
    .default(-6),
  /** Share of recordings whose polls fail forever. */
  failingPollShare: Share.default(0.1),
  /** Share of recordings that complete late. */
  lateCompletionShare: Share.default(0.1),
  /** When late recordings complete, after upload. */
  lateCompletionMs: z
    .number()
    .int()
    .min(0)
    .default(6 * 60_000),
  /** Share of account answers made unreadable, and (separately) of those given an unexpected role. */
  accountShare: Share.default(0.25),
});
export type Misbehave = z.infer<typeof Misbehave>;
export type MisbehaveInput = z.input<typeof Misbehave>;

export const NO_MISBEHAVIOUR: Misbehave = Misbehave.parse({});

/**
 * Reads `--misbehave` style lists: `loose` (everything), or names separated by commas. Returns the
 * names or the words that are not misbehaviours.
 */
export const parseMisbehaviourList = (
  text: string,
): { ok: true; names: MisbehaviourName[] } | { ok: false; unknown: string[] } => {
  const words = text
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean);
  const unknown = words.filter((w) => w !== LOOSE && !MisbehaviourName.safeParse(w).success);
  if (unknown.length) return { ok: false, unknown };
  if (words.includes(LOOSE)) return { ok: true, names: [...MISBEHAVIOURS] };
  return { ok: true, names: [...new Set(words as MisbehaviourName[])] };
};

/** What identifies a recording for the misbehaving decisions (stable across runs, unlike its id). */
export interface RecordingKey {
  readonly audioSha256: string;
  readonly recordedAt: string;
}

const on = (m: Misbehave, name: MisbehaviourName): boolean => m.enabled.includes(name);

const hits = (m: Misbehave, name: MisbehaviourName, share: number, r: RecordingKey): boolean =>
  on(m, name) && hashUniform(String(m.seed), name, r.audioSha256, r.recordedAt) < share;

/** Whether this recording's polls fail forever. */
export const pollsFailForever = (m: Misbehave, r: RecordingKey): boolean =>
  hits(m, 'failing_polls', m.failingPollShare, r);

/** The time from upload to completion for this recording, when it completes late; else null. */
export const lateCompletionMs = (m: Misbehave, r: RecordingKey): number | null =>
  hits(m, 'late_completions', m.lateCompletionShare, r) ? m.lateCompletionMs : null;

/** A timestamp as the service's (skewed) clock writes it. */
const skewed = (m: Misbehave, iso: unknown): unknown =>
  on(m, 'skewed_clock') && typeof iso === 'string' && !Number.isNaN(Date.parse(iso))
    ? new Date(Date.parse(iso) + m.clockSkewMinutes * 60_000).toISOString()
    : iso;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

const getPath = (o: Obj, path: readonly string[]): unknown =>
  path.reduce<unknown>((n, p) => (isObj(n) ? n[p] : undefined), o);
/** Sets the value at `path`, making the objects on the way where they are missing. */
const setPath = (o: Obj, path: readonly string[], v: unknown): void => {
  let node = o;
  for (const p of path.slice(0, -1)) {
    if (!isObj(node[p])) node[p] = {};
    node = node[p] as Obj;
  }
  node[path[path.length - 1]!] = v;
};

const UNKNOWN_WORDS = ['elevated', 'borderline', 'unclear', 'moderate-high'] as const;

/** Another letter case of a listed value ("High", "MCI"), or a word the specification does not list. */
const looseRating = (value: string, rng: Rng): string => {
  if (rng.uniform() < 0.5) {
    const other = value.toUpperCase() === value ? value.toLowerCase() : value.toUpperCase();
    return value.length > 3 ? value[0]!.toUpperCase() + value.slice(1) : other;
  }
  return UNKNOWN_WORDS[Math.floor(rng.uniform() * UNKNOWN_WORDS.length)]!;
};

/**
 * A whole number made fractional by less than one and kept in its range: downwards, so a value at the
 * top stays in it, unless that would pass the bottom (a score of 0 goes up).
 */
const fraction = (d: MeasureDef, v: number, rng: Rng): number => {
  const step = 0.13 + 0.74 * rng.uniform();
  const bottom = (d.range ?? d.assumedRange)?.[0] ?? 0;
  return Math.round((v - step >= bottom ? v - step : v + step) * 100) / 100;
};

const outOfRange = (m: MeasureDef, rng: Rng): number => {
  if (m.key === 'pd_risk_score') return 250;
  return rng.uniform() < 0.5 ? 101 : -3;
};

/** One completed analysis object, loosened in place by the value misbehaviours that hit this recording. */
const loosenCompleted = (
  m: Misbehave,
  version: ApiVersion,
  type: AnalysisType,
  o: Obj,
  r: RecordingKey,
  applied: Set<MisbehaviourName>,
): void => {
  const rng = new Rng(String(m.seed), 'values', r.audioSha256, r.recordedAt, type, version);
  const measures = measuresOf(type).filter((d) => d.path[version] !== undefined);
  const at = (d: MeasureDef) => d.path[version]!;
  const value = (d: MeasureDef) => getPath(o, at(d));
  const set = (d: MeasureDef, v: unknown, why: MisbehaviourName) => {
    setPath(o, at(d), v);
    applied.add(why);
  };

  if (hits(m, 'free_string_ratings', m.share, r))
    for (const d of measures)
      if (d.allowed && typeof value(d) === 'string')
        set(d, looseRating(value(d) as string, rng), 'free_string_ratings');

  // The cognition probabilities (sent, or added where the simulation left them out).
  const probs = measures.filter((d) => d.kind === 'probability');
  if (hits(m, 'probabilities_not_summing', m.share, r) && probs.length === 3) {
    const high = rng.uniform() < 0.5;
    probs.forEach((d, i) => set(d, high ? 0.9 : [0.2, 0.2, 0.1][i], 'probabilities_not_summing'));
  }

  if (hits(m, 'out_of_range', m.share, r)) {
    // One score of each scored type, and probabilities outside 0–1 that still add up to 1.
    const score = measures.find(
      (d) => d.kind === 'score' && (d.range || d.assumedRange) && typeof value(d) === 'number',
    );
    if (score) set(score, outOfRange(score, rng), 'out_of_range');
    if (probs.length === 3) probs.forEach((d, i) => set(d, [1.35, -0.2, -0.15][i], 'out_of_range'));
  }

  if (hits(m, 'fractional_integers', m.share, r))
    for (const d of measures)
      if (d.valueType === 'integer' && typeof value(d) === 'number' && Number.isInteger(value(d)))
        set(d, fraction(d, value(d) as number, rng), 'fractional_integers');

  if (hits(m, 'nulls', m.share, r)) {
    // Optional numeric members: up to two indicators sent as null instead of omitted or given.
    const indicators = measures.filter((d) => d.kind === 'indicator' && value(d) !== undefined).slice(0, 2);
    for (const d of indicators) set(d, null, 'nulls');
  }

  if (on(m, 'extra_fields')) {
    o['model_version'] = '2025.07-sim';
    applied.add('extra_fields');
  }
};

export interface Loosened {
  readonly body: unknown;
  /** The misbehaviours that changed this answer (for the request log). */
  readonly applied: readonly MisbehaviourName[];
}

/** An analysis answer (`metadata`, `analysis`, `simulation`) as the loose service sends it. */
export const loosenAnalysis = (
  m: Misbehave,
  version: ApiVersion,
  body: unknown,
  r: RecordingKey,
  notRequested: readonly AnalysisType[],
): Loosened => {
  if (!m.enabled.length || !isObj(body)) return { body, applied: [] };
  const out = structuredClone(body);
  const applied = new Set<MisbehaviourName>();
  const metadata = out['metadata'];
  if (isObj(metadata)) {
    if (on(m, 'skewed_clock') && typeof metadata['uploaded_at'] === 'string') {
      metadata['uploaded_at'] = skewed(m, metadata['uploaded_at']);
      applied.add('skewed_clock');
    }
    if (on(m, 'extra_fields')) metadata['service_region'] = 'sim-eu-1';
  }
  const analysis = out['analysis'];
  if (isObj(analysis)) {
    for (const [type, o] of Object.entries(analysis))
      if (isObj(o) && o['status'] === 'completed')
        loosenCompleted(m, version, type as AnalysisType, o, r, applied);
    if (on(m, 'extra_fields')) {
      analysis['voice_age'] = {
        status: 'completed',
        insights: { voice_age: { estimate_years: 40 + Math.floor(hashUniform(r.audioSha256) * 30) } },
      };
      applied.add('extra_fields');
    }
    if (version === 'v1.3' && hits(m, 'nulls', m.share, r))
      for (const type of notRequested)
        if (type in analysis) {
          analysis[type] = null;
          applied.add('nulls');
        }
  }
  return { body: out, applied: [...applied] };
};

/** An upload receipt as the loose service sends it. */
export const loosenReceipt = (m: Misbehave, body: unknown): Loosened => {
  if (!m.enabled.length || !isObj(body)) return { body, applied: [] };
  const out = structuredClone(body);
  const applied: MisbehaviourName[] = [];
  if (on(m, 'skewed_clock')) {
    out['uploaded_at'] = skewed(m, out['uploaded_at']);
    applied.push('skewed_clock');
  }
  if (on(m, 'extra_fields')) {
    out['processing_region'] = 'sim-eu-1';
    applied.push('extra_fields');
  }
  return { body: out, applied };
};

const garbles = (m: Misbehave, sequence: number): boolean =>
  sequence >= 0 && hashUniform(String(m.seed), 'unreadable_account', String(sequence)) < m.accountShare;

export type LooseAccount =
  | (Loosened & { readonly kind: 'json' })
  | { readonly kind: 'unreadable'; readonly text: string; readonly applied: readonly MisbehaviourName[] };

/**
 * An account answer as the loose service sends it. `sequence`: how many accounts the organisation had
 * before this one. An unreadable answer is never given to two accounts in a row, so a client that
 * retries once after an unreadable answer gets an account.
 */
export const loosenAccount = (m: Misbehave, body: unknown, sequence: number): LooseAccount => {
  if (!m.enabled.length || !isObj(body)) return { kind: 'json', body, applied: [] };
  if (on(m, 'unreadable_account') && garbles(m, sequence) && !garbles(m, sequence - 1)) {
    const text = JSON.stringify(body);
    return {
      kind: 'unreadable',
      text: text.slice(0, Math.floor(text.length / 2)),
      applied: ['unreadable_account'],
    };
  }
  const out = structuredClone(body);
  const applied: MisbehaviourName[] = [];
  if (
    on(m, 'unexpected_role') &&
    hashUniform(String(m.seed), 'unexpected_role', String(sequence)) < m.accountShare
  ) {
    out['organisation_role'] =
      hashUniform(String(m.seed), 'role', String(sequence)) < 0.5 ? 'Researcher' : 'admin';
    applied.push('unexpected_role');
  }
  if (on(m, 'extra_fields')) {
    out['created_by'] = 'sandbox-loose';
    applied.push('extra_fields');
  }
  return { kind: 'json', body: out, applied };
};
