/**
 * Typed API failures, as plain serialisable values (they cross IPC intact, unlike Error subclasses).
 * `classifyHttpError` maps status and the service's `type` to a kind; `explainApiError` says, in a
 * researcher's words, what went wrong and what to do.
 */
import { z } from 'zod';

export const API_ERROR_KINDS = [
  'Unauthorized',
  'Suspended',
  'ApiNotProvisioned',
  'AnalysisNotEnabled',
  'UploadLimitExceeded',
  'SpeakerSpeechTooShort',
  'RecordingTooLongForIsolation',
  'BadRequest',
  'Forbidden',
  'NotFound',
  'TooLarge',
  'RateLimited',
  'ServerError',
  'NetworkError',
  'Timeout',
  'InvalidResponse',
  'UnexpectedStatus',
  'InsecureAddress',
] as const;
export const ApiErrorKind = z.enum(API_ERROR_KINDS);
export type ApiErrorKind = z.infer<typeof ApiErrorKind>;

export const ENDPOINTS = ['ping', 'createAccount', 'upload', 'getAnalysis', 'getUsage'] as const;
export const Endpoint = z.enum(ENDPOINTS);
export type Endpoint = z.infer<typeof Endpoint>;

export const ApiError = z.object({
  kind: ApiErrorKind,
  endpoint: Endpoint,
  /** HTTP status, or null when no response arrived. */
  status: z.number().int().nullable(),
  /** The service's machine-readable `type`, kept verbatim even when unknown to us. */
  serviceType: z.string().nullable(),
  serviceMessage: z.string().nullable(),
  /** For RateLimited: how long to wait before asking again. */
  retryAfterMs: z.number().nonnegative().nullable(),
  /** For InvalidResponse: where in the response the schema was broken (e.g. `analysis.parkinsons.indicators.hnr`). */
  path: z.string().nullable(),
  /** Technical detail for diagnostics (network error code, schema message). Never contains the key or audio. */
  detail: z.string().nullable(),
  /**
   * For an answer that could not be read at all: its first few KB (BODY_EXCERPT_BYTES), for the event
   * log. The response headers are never included, and the API key is blanked wherever it is echoed.
   */
  bodyExcerpt: z.string().nullable().optional(),
});
export type ApiError = z.infer<typeof ApiError>;

export const apiError = (
  kind: ApiErrorKind,
  endpoint: Endpoint,
  extra: Partial<Omit<ApiError, 'kind' | 'endpoint'>> = {},
): ApiError => ({
  kind,
  endpoint,
  status: extra.status ?? null,
  serviceType: extra.serviceType ?? null,
  serviceMessage: extra.serviceMessage ?? null,
  retryAfterMs: extra.retryAfterMs ?? null,
  path: extra.path ?? null,
  detail: extra.detail ?? null,
  ...(extra.bodyExcerpt != null ? { bodyExcerpt: extra.bodyExcerpt } : {}),
});

/** How much of an unreadable answer is kept for the event log. */
export const BODY_EXCERPT_BYTES = 4096;

/**
 * The start of an answer for the event log: at most BODY_EXCERPT_BYTES characters, with the key and
 * anything that looks like a bearer credential blanked out.
 */
export const bodyExcerpt = (body: string, apiKey: string): string => {
  let s = body.slice(0, BODY_EXCERPT_BYTES);
  if (apiKey.length >= 4) s = s.split(apiKey).join('[key removed]');
  s = s.replace(/(bearer\s+)[^\s"'<>,;]+/gi, '$1[key removed]');
  s = s.replace(/("?(?:authorization|api[_-]?key)"?\s*[:=]\s*"?)[^\s"'<>,;]+/gi, '$1[key removed]');
  return body.length > BODY_EXCERPT_BYTES ? `${s}… (${body.length} characters in all)` : s;
};

/** Error types the specification names; they decide the kind whatever status carries them (the spec does not give all statuses). */
const NAMED_TYPES: Readonly<Record<string, ApiErrorKind>> = {
  suspended: 'Suspended',
  apinotprovisioned: 'ApiNotProvisioned',
  uploadlimitexceeded: 'UploadLimitExceeded',
  speakerspeechtooshort: 'SpeakerSpeechTooShort',
  recordingtoolongforisolation: 'RecordingTooLongForIsolation',
};

export const classifyHttpError = (
  status: number,
  serviceType: string | null,
  endpoint: Endpoint,
): ApiErrorKind => {
  if (status === 429) return 'RateLimited';
  if (status >= 500) return 'ServerError';
  // Read without regard to letter case or surrounding spaces: `suspended` is still a suspension.
  const named = serviceType !== null ? NAMED_TYPES[serviceType.trim().toLowerCase()] : undefined;
  if (named) return named;
  switch (status) {
    case 400:
      return 'BadRequest';
    case 401:
      return 'Unauthorized';
    // The spec lists three 403 conditions on upload; two have named types, so an upload 403 with any
    // other type is the third: the requested analysis is not enabled for the organisation.
    case 403:
      return endpoint === 'upload' ? 'AnalysisNotEnabled' : 'Forbidden';
    case 404:
      return 'NotFound';
    case 413:
      return 'TooLarge';
    default:
      return 'UnexpectedStatus';
  }
};

export interface Explanation {
  readonly summary: string;
  readonly action: string;
}

const EXPLANATIONS: Readonly<Record<ApiErrorKind, Explanation>> = {
  Unauthorized: {
    summary: 'The service did not accept the API key.',
    action:
      "Check the key in Settings → Service profile; paste a fresh key from the service's web app if it was replaced.",
  },
  Suspended: {
    summary: "Your organisation's access to the service is suspended.",
    action:
      'Nothing can be uploaded or fetched until the service provider lifts the suspension. Contact them; your queued work is kept.',
  },
  ApiNotProvisioned: {
    summary: 'API billing is not set up for your organisation.',
    action:
      "Ask your organisation's administrator to provision API billing in the service's web app, then try again.",
  },
  AnalysisNotEnabled: {
    summary: 'One of the requested analysis types is not enabled for your organisation.',
    action:
      'Request only the analysis types your subscription includes, or ask the service provider to enable this one.',
  },
  UploadLimitExceeded: {
    summary: 'Your credit balance (or upload allowance) is used up; the recording was not accepted.',
    action:
      'Buy credits or wait for the next billing period, then resume the batch. Nothing was charged for this attempt.',
  },
  SpeakerSpeechTooShort: {
    summary: 'After keeping only the oldest speaker, less than 30 seconds of their speech remained.',
    action:
      'Upload a longer recording of that speaker, or switch off "isolate oldest speaker" if only one person speaks.',
  },
  RecordingTooLongForIsolation: {
    summary: 'Speaker isolation works only on recordings up to 10 minutes long.',
    action: 'Trim the recording to 10 minutes or less, or upload it without "isolate oldest speaker".',
  },
  BadRequest: {
    summary: 'The service refused the request as malformed.',
    action:
      "See the service's message, if it gave one. If the file passed local checks, report this with the event log.",
  },
  Forbidden: {
    summary: 'The service refused access to this resource.',
    action: 'Check that the key belongs to the organisation that owns this participant account.',
  },
  NotFound: {
    summary: 'The service does not know this recording.',
    action: 'It may belong to another organisation or key. Check the service profile used for this study.',
  },
  TooLarge: {
    summary: 'The file is larger than the 50 MB the service accepts.',
    action: 'Shorten or compress the recording (a mono 16 kHz WAV holds about 26 minutes in 50 MB).',
  },
  RateLimited: {
    summary: 'The service asked us to slow down.',
    action: 'Nothing to do: Voicescope waits and continues on its own.',
  },
  ServerError: {
    summary: 'The service had an internal error.',
    action:
      'Usually temporary. Reads are retried automatically; an upload whose outcome is unknown is held for your decision.',
  },
  NetworkError: {
    summary: 'The service could not be reached.',
    action: 'Check the network connection and the service address; work resumes when it is back.',
  },
  Timeout: {
    summary: 'The service did not answer in time.',
    action:
      'Usually temporary. Reads are retried automatically; an upload whose outcome is unknown is held for your decision.',
  },
  InvalidResponse: {
    summary: 'The service sent an answer Voicescope cannot read safely, so nothing from it was stored.',
    action: 'Usually temporary; it is asked again later. If it persists, report it with the event log.',
  },
  UnexpectedStatus: {
    summary: 'The service answered with a status the specification does not describe.',
    action:
      'Check the service address (a proxy or captive portal may be answering). Report it if it persists.',
  },
  InsecureAddress: {
    summary:
      'Voicescope did not send the API key: the service address uses plain http, which anyone on the network could read. Keys travel only over https (plain http only to this computer, such as the built-in sandbox).',
    action: 'Use the https:// address your service administrator gave you.',
  },
};

/**
 * Statuses the specification does not list, in words. Anything else unlisted falls back to the
 * UnexpectedStatus explanation with its number.
 */
const UNLISTED_STATUS: Readonly<Record<number, string>> = {
  402: 'The service asked for payment (HTTP 402, a status the specification does not list): the subscription or credit balance may need attention.',
  405: 'The service does not accept this request at this address (HTTP 405): the service address may point at something else.',
  407: 'A proxy between you and the service asks for its own login (HTTP 407).',
  408: 'The service gave up waiting for the request (HTTP 408).',
  409: 'The service reported a conflict (HTTP 409, a status the specification does not list).',
  410: 'The service says this address is gone (HTTP 410): the API version may have been retired.',
  415: 'The service did not accept the request format (HTTP 415).',
  422: 'The service could not process the request (HTTP 422, a status the specification does not list).',
};

export const explainApiError = (e: ApiError): Explanation => {
  const base = EXPLANATIONS[e.kind];
  let summary = base.summary;
  if (e.kind === 'InvalidResponse' && e.path !== null) summary += ` (at ${e.path})`;
  if (e.kind === 'UnexpectedStatus' && e.status !== null)
    summary =
      UNLISTED_STATUS[e.status] ??
      (e.status >= 300 && e.status < 400
        ? `The service answered with a redirect (HTTP ${e.status}), which the specification does not describe.`
        : `The service answered with HTTP ${e.status}, a status the specification does not describe.`);
  // A 403 that names no known type: the specification's 403s are suspension, billing and (upload) analysis not enabled.
  if (e.kind === 'Forbidden' && e.serviceType === null)
    summary =
      'The service refused access (HTTP 403) without saying why; the specification gives this status for a suspended organisation or missing API billing.';
  if (e.kind === 'TooLarge' && e.endpoint !== 'upload')
    summary = 'The service said the request was too large (HTTP 413).';
  if (e.serviceMessage === null && e.status !== null && e.status >= 400 && e.kind !== 'RateLimited')
    summary += ' The service gave no further explanation.';
  return { summary, action: base.action };
};
