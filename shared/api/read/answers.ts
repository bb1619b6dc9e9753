/**
 * Reading the service's answers tolerantly: part by part, each part on its own, every value
 * kept as received with a data-quality flag when it departs from the specification. Only an answer that
 * cannot be read at all is refused (`Unreadable`): not an object at the top, `metadata` or `analysis`
 * not objects, an account without an `account_id`, a usage answer without its numbers. Unknown members
 * and analysis types are kept and flagged, never refused.
 */
import { dqFlag, jsonText } from '../data-quality';
import type {
  Account,
  RecordingAnalysis,
  RecordingReceipt,
  ResultSource,
  Usage,
  UnlistedAnalysis,
} from '../domain';
import { err, ok, type Result } from '../../result';
import { analysisTypesFor, ORGANISATION_ROLES, type ApiVersion } from '../vocabulary';
import { AUDIO_MEMBERS, readAudioFacts } from './audio-facts';
import { readAnalysisObject } from './analysis-object';
import {
  flagUnknownMembers,
  isAbsent,
  isObj,
  readDateTime,
  readNumber,
  readText,
  readUuid,
  type Flags,
  type Obj,
} from './fields';

/** Why an answer could not be read at all: where, and what was found there. */
export interface Unreadable {
  readonly path: string;
  readonly detail: string;
}

const unreadable = (path: string, detail: string) => err<Unreadable>({ path, detail });

const kindOf = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;

/** The simulated mark: the header, or a top-level `simulation` object whose `simulated` is true. */
const sourceOf = (top: Obj, simulatedHeader: boolean): ResultSource => {
  const s = top['simulation'];
  return simulatedHeader || (isObj(s) && s['simulated'] === true) ? 'simulated' : 'service';
};

/** `simulation` is the sandbox's own mark (wire-common.ts), known at the top of upload and analysis answers. */
const TOP_ANALYSIS = new Set(['metadata', 'analysis', 'simulation']);
const METADATA_REQUIRED = new Set(['recording_id', 'account_id', 'recorded_at', 'audio_duration_seconds']);
const METADATA_MEMBERS = new Set([...METADATA_REQUIRED, 'uploaded_at', ...AUDIO_MEMBERS]);
const RECEIPT_MEMBERS = new Set([
  'recording_id',
  'account_id',
  'recorded_at',
  'uploaded_at',
  ...AUDIO_MEMBERS,
  'simulation',
]);

/**
 * An analysis answer. `polledRecordingId` is the id that was asked for: when the metadata has no
 * `recording_id`, the answer is read as about that recording (the request named it) and flagged.
 */
export const readAnalysisAnswer = (
  version: ApiVersion,
  json: unknown,
  opts: { readonly simulatedHeader: boolean; readonly polledRecordingId: string },
): Result<RecordingAnalysis, Unreadable> => {
  if (!isObj(json)) return unreadable('(root)', `expected an object, got ${kindOf(json)}`);
  const md = json['metadata'];
  const an = json['analysis'];
  if (!isObj(md)) return unreadable('metadata', `expected an object, got ${kindOf(md)}`);
  if (!isObj(an)) return unreadable('analysis', `expected an object, got ${kindOf(an)}`);

  const flags: Flags = [];
  flagUnknownMembers(flags, '', json, TOP_ANALYSIS);
  flagUnknownMembers(flags, 'metadata', md, METADATA_MEMBERS);
  const recordingId = readUuid(flags, 'metadata.recording_id', md['recording_id'], true);
  const accountId = readUuid(flags, 'metadata.account_id', md['account_id'], true);
  const recordedAt = readDateTime(flags, 'metadata.recorded_at', md['recorded_at'], true);
  const uploadedAt = readDateTime(flags, 'metadata.uploaded_at', md['uploaded_at'], false);
  const audio = readAudioFacts(flags, 'metadata', md, (k) => METADATA_REQUIRED.has(k));

  const types = analysisTypesFor(version);
  const outcomes = [];
  const unlisted: UnlistedAnalysis[] = [];
  for (const type of types) {
    const obj = an[type];
    if (isAbsent(obj)) continue;
    if (!isObj(obj)) {
      flags.push(dqFlag('object_expected', `analysis.${type}`, obj, 'an object'));
      continue;
    }
    outcomes.push(readAnalysisObject(version, type, obj));
  }
  for (const [name, obj] of Object.entries(an)) {
    if ((types as readonly string[]).includes(name)) continue;
    flags.push(
      dqFlag('unknown_analysis_type', `analysis.${name}`, obj, `one of ${types.join(', ')} (${version})`),
    );
    unlisted.push({ name, raw: jsonText(obj) });
  }

  return ok({
    apiVersion: version,
    recordingId: recordingId ?? opts.polledRecordingId,
    accountId,
    recordedAt,
    uploadedAt,
    audio,
    source: sourceOf(json, opts.simulatedHeader),
    outcomes,
    unlisted,
    flags,
  });
};

/**
 * "About this recording": the answer's `recording_id` equals the polled id ignoring letter case (UUIDs
 * are case-insensitive), or the answer gave none (then the reader put in the polled id, flagged
 * `required_missing`). Any other id, well-formed or not, means an answer about another recording, which
 * must never be stored under the one polled.
 */
export const isAboutRecording = (a: RecordingAnalysis, polledRecordingId: string): boolean =>
  a.recordingId.toLowerCase() === polledRecordingId.toLowerCase();

/**
 * An upload answer. `null` recording id (absent, or not text) is reported by the caller as "accepted but
 * which recording is unknown" (uncertain), exactly as before.
 */
export const readReceipt = (
  version: ApiVersion,
  json: unknown,
  simulatedHeader: boolean,
): Result<RecordingReceipt | null, Unreadable> => {
  if (!isObj(json)) return unreadable('(root)', `expected an object, got ${kindOf(json)}`);
  const flags: Flags = [];
  const req = version === 'v1.3';
  flagUnknownMembers(flags, '', json, RECEIPT_MEMBERS);
  const recordingId = readUuid(flags, 'recording_id', json['recording_id'], req);
  const accountId = readUuid(flags, 'account_id', json['account_id'], req);
  const recordedAt = readDateTime(flags, 'recorded_at', json['recorded_at'], req);
  const uploadedAt = readDateTime(flags, 'uploaded_at', json['uploaded_at'], req);
  const audio = readAudioFacts(flags, '', json, () => req);
  if (recordingId === null) return ok(null);
  return ok({
    apiVersion: version,
    recordingId,
    accountId,
    recordedAt,
    uploadedAt,
    audio,
    source: sourceOf(json, simulatedHeader),
    flags,
  });
};

/**
 * An account answer. Kept whenever it carries an `account_id` (text), whatever else is odd: a second
 * POST /accounts would create a second account for the same participant. Without one it is unreadable.
 */
export const readAccount = (version: ApiVersion, json: unknown): Result<Account, Unreadable> => {
  if (!isObj(json)) return unreadable('(root)', `expected an object, got ${kindOf(json)}`);
  const flags: Flags = [];
  flagUnknownMembers(flags, '', json, new Set(['account_id', 'organisation_role']));
  const accountId = readUuid(flags, 'account_id', json['account_id'], false);
  if (accountId === null) return unreadable('account_id', 'account created without an account_id');
  const role = readText(flags, 'organisation_role', json['organisation_role'], version === 'v1.3');
  if (role !== null && !(ORGANISATION_ROLES as readonly string[]).includes(role))
    flags.push(
      dqFlag('role_not_in_enum', 'organisation_role', role, `one of ${ORGANISATION_ROLES.join(', ')}`),
    );
  return ok({ accountId, role, flags });
};

const USAGE_V13 = [
  'trial_remaining',
  'trial_granted',
  'included_remaining',
  'included_granted',
  'purchased_remaining',
] as const;

/**
 * A usage answer. Its numbers are what the credit check runs on, so one that is absent or not a number
 * makes the answer unusable (asking again costs nothing). Fractions, negative credits and more
 * remaining than granted are kept and flagged.
 */
export const readUsage = (version: ApiVersion, json: unknown): Result<Usage, Unreadable> => {
  if (!isObj(json)) return unreadable('(root)', `expected an object, got ${kindOf(json)}`);
  const flags: Flags = [];
  const need = (k: string, nonNegative: boolean): number | null => {
    const v = json[k];
    if (typeof v !== 'number' || !Number.isFinite(v)) return null;
    return readNumber(flags, k, v, true, { integer: true, nonNegative });
  };
  if (version === 'v1.2') {
    flagUnknownMembers(flags, '', json, new Set(['count', 'limit']));
    const used = need('count', true);
    const limit = need('limit', true);
    if (used === null) return unreadable('count', `expected an integer, got ${kindOf(json['count'])}`);
    if (limit === null) return unreadable('limit', `expected an integer, got ${kindOf(json['limit'])}`);
    return ok({
      apiVersion: version,
      uploadsRemaining: Math.max(0, limit - used),
      detail: { kind: 'upload_count', used, limit },
      flags,
    });
  }
  flagUnknownMembers(flags, '', json, new Set([...USAGE_V13, 'tier']));
  const n: Partial<Record<(typeof USAGE_V13)[number], number>> = {};
  for (const k of USAGE_V13) {
    const v = need(k, false);
    if (v === null) return unreadable(k, `expected an integer, got ${kindOf(json[k])}`);
    n[k] = v;
    if (v < 0) flags.push(dqFlag('negative_credits', k, v, 'zero or more'));
  }
  const tier = readText(flags, 'tier', json['tier'], false);
  const v = n as Record<(typeof USAGE_V13)[number], number>;
  for (const b of ['trial', 'included'] as const)
    if (v[`${b}_remaining`] > v[`${b}_granted`])
      flags.push(
        dqFlag(
          'remaining_exceeds_granted',
          `${b}_remaining`,
          v[`${b}_remaining`],
          `at most ${b}_granted (${v[`${b}_granted`]})`,
        ),
      );
  return ok({
    apiVersion: version,
    uploadsRemaining:
      Math.max(0, v.trial_remaining) + Math.max(0, v.included_remaining) + Math.max(0, v.purchased_remaining),
    detail: {
      kind: 'credits',
      trialRemaining: v.trial_remaining,
      trialGranted: v.trial_granted,
      includedRemaining: v.included_remaining,
      includedGranted: v.included_granted,
      purchasedRemaining: v.purchased_remaining,
      tier,
    },
    flags,
  });
};

/**
 * The error envelope `{ error: { type, message } }`, read whatever is missing: a `Suspended` without its
 * message (v1.3 requires both) must still be understood as a suspension.
 */
export const readErrorBody = (body: string): { type: string | null; message: string | null } => {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { type: null, message: null };
  }
  const e = isObj(json) ? json['error'] : undefined;
  if (!isObj(e)) return { type: null, message: null };
  const type = typeof e['type'] === 'string' && e['type'].trim() !== '' ? e['type'].trim() : null;
  const message = typeof e['message'] === 'string' && e['message'].trim() !== '' ? e['message'] : null;
  return { type, message };
};
