/**
 * Turns stored sandbox records into the wire shapes of v1.3 and v1.2. Return types are the zod input
 * types of the client's own schemas (shared/api/wire*.ts), so the compiler checks the sandbox's output
 * against the contract; the per-type analysis objects, built from the measure catalogue's paths, are
 * also checked at run time against the same schemas before they leave.
 *
 * v1.3 omits unavailable values; v1.2 sends null. A `processing` or `error` object carries only its
 * status; a type that was not requested is `{ status: "not_requested" }`.
 */
import type { z } from 'zod';
import { measuresOf } from '../../shared/api/measures';
import type { AnalysisStatus, AnalysisType, ApiVersion } from '../../shared/api/vocabulary';
import { type Ping } from '../../shared/api/wire-common';
import { AlzheimersV12, ParkinsonsV12, WellbeingV12 } from '../../shared/api/wire-v12';
import { AlzheimersV13, CommunicationCoachV13, ParkinsonsV13, WellbeingV13 } from '../../shared/api/wire-v13';
import type { WIRE } from '../../shared/api/wire';
import { iso } from '../../shared/iso';
import type { CreditBuckets, Organisation } from './config';
import type { AccountRecord, RecordingRecord } from './state';

type W<V extends ApiVersion> = (typeof WIRE)[V];
export type AccountOut<V extends ApiVersion> = z.input<W<V>['account']>;
export type RecordingOut<V extends ApiVersion> = z.input<W<V>['recording']>;
export type AnalysisOut<V extends ApiVersion> = z.input<W<V>['analysis']>;
export type UsageOut<V extends ApiVersion> = z.input<W<V>['usage']>;
export type PingOut = z.input<typeof Ping>;
export type ErrorOut = z.input<W<'v1.3'>['error']>;

/** A measure's simulated value; null: unavailable. */
export type MeasureValues = Readonly<Record<string, number | string | null>>;

export interface SimulationMark {
  readonly simulated: true;
  readonly generator: string;
}

export const renderPing = (): PingOut => ({
  message: 'Speech Analysis sandbox is up. Everything it returns is simulated.',
});

export const renderError = (type: string, message: string): ErrorOut => ({ error: { type, message } });

export const renderAccount = (a: AccountRecord): AccountOut<'v1.3'> & AccountOut<'v1.2'> => ({
  account_id: a.id,
  organisation_role: 'speaker',
});

/** The same fields in both versions (all required in v1.3, optional in v1.2). */
export const renderRecording = (
  r: RecordingRecord,
  simulation: SimulationMark,
): RecordingOut<'v1.3'> & RecordingOut<'v1.2'> => ({
  recording_id: r.id,
  account_id: r.accountId,
  recorded_at: r.recordedAt,
  uploaded_at: iso(r.uploadedAt),
  audio_file_format: r.reported.format,
  audio_size_bytes: r.reported.sizeBytes,
  audio_sample_rate_hz: r.reported.sampleRateHz,
  audio_bit_rate_bps: r.reported.bitRateBps,
  audio_duration_seconds: r.reported.durationSeconds,
  speech_duration_seconds: r.reported.speechSeconds,
  simulation,
});

export const renderUsageV13 = (c: CreditBuckets): UsageOut<'v1.3'> => ({
  trial_remaining: c.trial_remaining,
  trial_granted: c.trial_granted,
  included_remaining: c.included_remaining,
  included_granted: c.included_granted,
  purchased_remaining: c.purchased_remaining,
  tier: c.tier,
});

export const renderUsageV12 = (o: Organisation): UsageOut<'v1.2'> => ({
  count: o.v12.count,
  limit: o.v12.limit,
});

// ---------------------------------------------------------------------------------------------------
// Analysis objects

type Obj = Record<string, unknown>;

const setPath = (root: Obj, path: readonly string[], value: unknown): void => {
  let node = root;
  for (const part of path.slice(0, -1)) {
    const next = node[part];
    if (next !== null && typeof next === 'object') node = next as Obj;
    else {
      const created: Obj = {};
      node[part] = created;
      node = created;
    }
  }
  node[path[path.length - 1]!] = value;
};

/** Removes objects left empty once their unavailable members were omitted (v1.3). */
const pruneEmpty = (o: Obj): void => {
  for (const [k, v] of Object.entries(o)) {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      pruneEmpty(v as Obj);
      if (Object.keys(v).length === 0) delete o[k];
    }
  }
};

const hasAll = (o: unknown, keys: readonly string[]): boolean =>
  o !== null && typeof o === 'object' && keys.every((k) => (o as Obj)[k] !== undefined);

/**
 * v1.3 objects whose members are all required: when one member is unavailable the whole object is
 * omitted (the schema does not allow it partial). Listed by path inside the analysis object.
 */
const V13_WHOLE_OR_NOTHING: Partial<
  Record<AnalysisType, readonly { path: readonly string[]; members: readonly string[] }[]>
> = {
  alzheimers: [{ path: ['insights', 'cognition'], members: ['rating'] }],
  communication_coach: [
    { path: ['indicators'], members: ['word_rate', 'fragment_rate', 'filler_words_rate'] },
    { path: ['insights'], members: ['rhythm', 'clarity', 'positiveness', 'speaking_rate'] },
  ],
};

const dropIncomplete = (type: AnalysisType, o: Obj): void => {
  for (const { path, members } of V13_WHOLE_OR_NOTHING[type] ?? []) {
    const parent = path
      .slice(0, -1)
      .reduce<unknown>((n, p) => (n && typeof n === 'object' ? (n as Obj)[p] : undefined), o);
    const last = path[path.length - 1]!;
    if (
      parent &&
      typeof parent === 'object' &&
      (parent as Obj)[last] !== undefined &&
      !hasAll((parent as Obj)[last], members)
    ) {
      delete (parent as Obj)[last];
    }
  }
};

/** Places each measure of `type` at its catalogue path for `version`: v1.3 omits null values, v1.2 keeps them as null. */
export const completedObject = (version: ApiVersion, type: AnalysisType, values: MeasureValues): Obj => {
  const o: Obj = { status: 'completed' };
  for (const m of measuresOf(type)) {
    const path = m.path[version];
    if (path === undefined) continue;
    const v = values[m.key];
    if (v === null || v === undefined) {
      if (version === 'v1.2') setPath(o, path, null);
      continue;
    }
    setPath(o, path, v);
  }
  if (version === 'v1.3') {
    dropIncomplete(type, o);
    pruneEmpty(o);
  }
  return o;
};

export class RenderError extends Error {}

const TYPE_SCHEMAS = {
  'v1.3': {
    wellbeing: WellbeingV13,
    parkinsons: ParkinsonsV13,
    alzheimers: AlzheimersV13,
    communication_coach: CommunicationCoachV13,
  },
  'v1.2': { wellbeing: WellbeingV12, parkinsons: ParkinsonsV12, alzheimers: AlzheimersV12 },
} as const;

type AnalysisBlock<V extends ApiVersion> = NonNullable<AnalysisOut<V>['analysis']>;

/** Checks a built object against the client's schema for that type; a mismatch is a sandbox bug, reported as such. */
const conforms = <S extends z.ZodType>(schema: S, value: unknown, what: string): z.input<S> => {
  const r = schema.safeParse(value);
  if (!r.success)
    throw new RenderError(
      `the sandbox built an invalid ${what}: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  return value as z.input<S>;
};

export interface AnalysisInput {
  readonly recording: RecordingRecord;
  /** The types to show, in order. */
  readonly types: readonly AnalysisType[];
  readonly statusOf: (type: AnalysisType) => AnalysisStatus;
  /** Simulated values of a completed type. */
  readonly valuesOf: (type: AnalysisType) => MeasureValues;
  readonly simulation: SimulationMark;
}

const typeObject = (version: ApiVersion, type: AnalysisType, input: AnalysisInput): Obj => {
  const status = input.statusOf(type);
  return status === 'completed' ? completedObject(version, type, input.valuesOf(type)) : { status };
};

const metadataOf = (
  r: RecordingRecord,
): AnalysisOut<'v1.3'>['metadata'] & AnalysisOut<'v1.2'>['metadata'] => ({
  recording_id: r.id,
  account_id: r.accountId,
  recorded_at: r.recordedAt,
  audio_duration_seconds: r.reported.durationSeconds,
  uploaded_at: iso(r.uploadedAt),
  audio_file_format: r.reported.format,
  audio_size_bytes: r.reported.sizeBytes,
  audio_sample_rate_hz: r.reported.sampleRateHz,
  audio_bit_rate_bps: r.reported.bitRateBps,
  speech_duration_seconds: r.reported.speechSeconds,
});

export const renderAnalysisV13 = (input: AnalysisInput): AnalysisOut<'v1.3'> => {
  const analysis: AnalysisBlock<'v1.3'> = {};
  const s = TYPE_SCHEMAS['v1.3'];
  for (const type of input.types) {
    const o = typeObject('v1.3', type, input);
    const what = `v1.3 ${type} object`;
    switch (type) {
      case 'wellbeing':
        analysis.wellbeing = conforms(s.wellbeing, o, what);
        break;
      case 'parkinsons':
        analysis.parkinsons = conforms(s.parkinsons, o, what);
        break;
      case 'alzheimers':
        analysis.alzheimers = conforms(s.alzheimers, o, what);
        break;
      case 'communication_coach':
        analysis.communication_coach = conforms(s.communication_coach, o, what);
        break;
    }
  }
  return { metadata: metadataOf(input.recording), analysis, simulation: input.simulation };
};

export const renderAnalysisV12 = (input: AnalysisInput): AnalysisOut<'v1.2'> => {
  const analysis: AnalysisBlock<'v1.2'> = {};
  const s = TYPE_SCHEMAS['v1.2'];
  for (const type of input.types) {
    const what = `v1.2 ${type} object`;
    switch (type) {
      case 'wellbeing':
        analysis.wellbeing = conforms(s.wellbeing, typeObject('v1.2', type, input), what);
        break;
      case 'parkinsons':
        analysis.parkinsons = conforms(s.parkinsons, typeObject('v1.2', type, input), what);
        break;
      case 'alzheimers':
        analysis.alzheimers = conforms(s.alzheimers, typeObject('v1.2', type, input), what);
        break;
      case 'communication_coach':
        break; // not a v1.2 type
    }
  }
  return { metadata: metadataOf(input.recording), analysis, simulation: input.simulation };
};
