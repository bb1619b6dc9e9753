/**
 * `POST /recordings` checks, in order (the body's size cap is applied while reading it, before this):
 * JSON and the version's request schema (400 InvalidRequest), strict Base64 (400 InvalidAudio), decoded
 * size (413 FileTooLarge), the account (400 AccountNotFound), the analysis types enabled (403
 * AnalysisNotEnabled), credits or upload count (403 UploadLimitExceeded), the container (400
 * InvalidAudio), mono, bit rate and sample rate (400 UnsupportedAudio), then isolation limits (400
 * RecordingTooLongForIsolation, SpeakerSpeechTooShort) or the plain speech minimum (400 SpeechTooShort).
 */
import type { z } from 'zod';
import type { AnalysisType, ApiVersion } from '../../shared/api/vocabulary';
import { analysisTypesFor, LIMITS } from '../../shared/api/vocabulary';
import { WIRE } from '../../shared/api/wire';
import { err, ok, type Result } from '../../shared/result';
import { probeAudio, sha256Hex } from './audio-probe';
import type { Organisation } from './config';
import { uploadRefusal } from './credits';
import { retainedSpeakerFacts } from './diarisation';
import type { AudioFacts } from './state';

export interface Refusal {
  readonly status: number;
  readonly type: string;
  readonly message: string;
}

export interface AcceptedUpload {
  readonly accountId: string;
  readonly recordedAt: string;
  /** Requested types, without repeats, in the order first given. */
  readonly analyses: readonly AnalysisType[];
  readonly isolateOldestSpeaker: boolean;
  readonly audioSha256: string;
  readonly submitted: AudioFacts;
  /** The retained speaker's audio with isolation, else the submitted audio. */
  readonly reported: AudioFacts;
}

export interface UploadInput {
  readonly version: ApiVersion;
  readonly org: Organisation;
  readonly contentType: string | undefined;
  readonly body: Buffer;
  readonly creditsPerUpload: number;
  readonly minSampleRateHz: number;
  /** True when the account exists and belongs to `org`. */
  readonly accountInOrg: (accountId: string) => boolean;
}

const refuse = (status: number, type: string, message: string): Result<never, Refusal> =>
  err({ status, type, message });

const fmt = (n: number): string => n.toLocaleString('en-US');
/** Seconds for a message, rounded towards the limit's side so "29.96" never reads as "30.0". */
const secsDown = (n: number): string => `${(Math.floor(n * 10) / 10).toFixed(1)} s`;
const secsUp = (n: number): string => `${(Math.ceil(n * 10) / 10).toFixed(1)} s`;

const fieldName = (path: readonly PropertyKey[]): string =>
  path.map((k, i) => (typeof k === 'number' ? `[${k}]` : `${i ? '.' : ''}${String(k)}`)).join('') || '(body)';

const valueAt = (root: unknown, path: readonly PropertyKey[]): unknown =>
  path.reduce<unknown>(
    (n, k) => (n !== null && typeof n === 'object' ? (n as Record<PropertyKey, unknown>)[k] : undefined),
    root,
  );

/** A sentence naming the first field the request schema refused. */
export const describeRequestIssue = (version: ApiVersion, body: unknown, issue: z.core.$ZodIssue): string => {
  const name = fieldName(issue.path);
  const value = valueAt(body, issue.path);
  if (value === undefined && issue.code === 'invalid_type') return `The field "${name}" is required.`;
  if (issue.path[0] === 'analysis' && issue.path.length === 2) {
    const allowed = analysisTypesFor(version).join(', ');
    if (value === 'communication_coach')
      return `The field "${name}": communication_coach is not an analysis type of ${version} (use ${allowed}).`;
    return `The field "${name}" must be one of ${allowed}.`;
  }
  if (issue.path[0] === 'analysis' && issue.code === 'too_small')
    return 'The field "analysis" must list at least one analysis type.';
  if (issue.path[0] === 'account_id') return 'The field "account_id" must be a UUID.';
  if (issue.path[0] === 'recorded_at')
    return 'The field "recorded_at" must be an ISO 8601 date-time with a time zone, e.g. 2026-03-02T09:15:00Z.';
  return `The field "${name}" is invalid: ${issue.message}.`;
};

/** Standard alphabet, padded to a multiple of 4, no whitespace, and zero bits where padding leaves some unused. */
export const isStrictBase64 = (s: string): boolean => {
  if (s.length % 4 !== 0) return false;
  if (!/^[A-Za-z0-9+/]*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s)) return false;
  const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  if (s.endsWith('==')) return (B64.indexOf(s[s.length - 3]!) & 0x0f) === 0;
  if (s.endsWith('=')) return (B64.indexOf(s[s.length - 2]!) & 0x03) === 0;
  return true;
};

export const decodedBase64Length = (s: string): number =>
  (s.length / 4) * 3 - (s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0);

const isJsonContentType = (ct: string | undefined): boolean =>
  ct !== undefined && /^application\/json\s*(?:;|$)/i.test(ct.trim());

export const validateUpload = async (input: UploadInput): Promise<Result<AcceptedUpload, Refusal>> => {
  const { version, org } = input;
  if (!isJsonContentType(input.contentType)) {
    return refuse(
      400,
      'InvalidRequest',
      'The request body must be JSON, sent with "Content-Type: application/json".',
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(input.body.toString('utf8'));
  } catch {
    return refuse(400, 'InvalidRequest', 'The request body is not valid JSON.');
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    return refuse(400, 'InvalidRequest', 'The request body must be a JSON object.');
  }
  const parsed = WIRE[version].uploadRequest.safeParse(json);
  if (!parsed.success)
    return refuse(400, 'InvalidRequest', describeRequestIssue(version, json, parsed.error.issues[0]!));
  const req = parsed.data;
  const isolate = 'isolate_oldest_speaker' in req && req.isolate_oldest_speaker === true;

  if (!isStrictBase64(req.audio)) {
    return refuse(
      400,
      'InvalidAudio',
      'The field "audio" is not valid Base64 (standard alphabet with padding, no line breaks or spaces).',
    );
  }
  const size = decodedBase64Length(req.audio);
  if (size > LIMITS.maxAudioBytes) {
    return refuse(
      413,
      'FileTooLarge',
      `The audio file is ${fmt(size)} bytes; the maximum is ${fmt(LIMITS.maxAudioBytes)} bytes (50 MB).`,
    );
  }
  if (!input.accountInOrg(req.account_id)) {
    return refuse(400, 'AccountNotFound', `No account ${req.account_id} exists in this organisation.`);
  }
  const analyses = [...new Set<AnalysisType>(req.analysis)];
  const notEnabled = analyses.filter((t) => !org.enabledAnalyses.includes(t));
  if (notEnabled.length) {
    return refuse(
      403,
      'AnalysisNotEnabled',
      `The analysis type${notEnabled.length > 1 ? 's' : ''} ${notEnabled.join(', ')} ${notEnabled.length > 1 ? 'are' : 'is'} not enabled for this organisation.`,
    );
  }
  const overLimit = uploadRefusal(org, version, input.creditsPerUpload);
  if (overLimit !== null) return refuse(403, 'UploadLimitExceeded', overLimit);

  const bytes = Buffer.from(req.audio, 'base64');
  // Too long to isolate a speaker in is refused whatever its speech: not measured then.
  const probed = await probeAudio(bytes, (f) => !(isolate && f.durationSeconds > LIMITS.maxIsolationSeconds));
  if (!probed.ok) return refuse(400, probed.error.type, probed.error.message);
  const submitted = probed.value;
  if (submitted.channels !== LIMITS.channels) {
    return refuse(
      400,
      'UnsupportedAudio',
      `The audio has ${submitted.channels} channels; only mono (1 channel) audio is accepted.`,
    );
  }
  if (submitted.bitRateBps < LIMITS.minBitRateBps) {
    return refuse(
      400,
      'UnsupportedAudio',
      `The audio's bit rate is ${fmt(submitted.bitRateBps)} bps; the minimum is ${fmt(LIMITS.minBitRateBps)} bps.`,
    );
  }
  if (submitted.sampleRateHz < input.minSampleRateHz) {
    return refuse(
      400,
      'UnsupportedAudio',
      `The audio's sample rate is ${fmt(submitted.sampleRateHz)} Hz; the minimum is ${fmt(input.minSampleRateHz)} Hz.`,
    );
  }
  const audioSha256 = sha256Hex(bytes);
  let reported = submitted;
  if (isolate) {
    if (submitted.durationSeconds > LIMITS.maxIsolationSeconds) {
      return refuse(
        400,
        'RecordingTooLongForIsolation',
        `The recording lasts ${secsUp(submitted.durationSeconds)}; isolating the oldest speaker needs a recording of at most 10 minutes (600 s).`,
      );
    }
    reported = retainedSpeakerFacts(submitted, audioSha256);
    if (reported.speechSeconds < LIMITS.minSpeechSeconds) {
      return refuse(
        400,
        'SpeakerSpeechTooShort',
        `After isolating the oldest speaker, ${secsDown(reported.speechSeconds)} of their speech remain; at least ${LIMITS.minSpeechSeconds} s are needed.`,
      );
    }
  } else if (submitted.speechSeconds < LIMITS.minSpeechSeconds) {
    return refuse(
      400,
      'SpeechTooShort',
      `The recording has ${secsDown(submitted.speechSeconds)} of speech; at least ${LIMITS.minSpeechSeconds} s are needed.`,
    );
  }
  return ok({
    accountId: req.account_id,
    recordedAt: req.recorded_at,
    analyses,
    isolateOldestSpeaker: isolate,
    audioSha256,
    submitted,
    reported,
  });
};
