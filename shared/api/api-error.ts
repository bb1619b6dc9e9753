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
});

/** Error types the specification names; they decide the kind whatever status carries them (the spec does not give all statuses). */
const NAMED_TYPES: Readonly<Record<string, ApiErrorKind>> = {
  Suspended: 'Suspended',
  ApiNotProvisioned: 'ApiNotProvisioned',
  UploadLimitExceeded: 'UploadLimitExceeded',
  SpeakerSpeechTooShort: 'SpeakerSpeechTooShort',
  RecordingTooLongForIsolation: 'RecordingTooLongForIsolation',
};

export const classifyHttpError = (
  status: number,
  serviceType: string | null,
  endpoint: Endpoint,
): ApiErrorKind => {
  if (status === 429) return 'RateLimited';
  if (status >= 500) return 'ServerError';
  const named = serviceType !== null ? NAMED_TYPES[serviceType] : undefined;
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
      "See the service's message below. If the file passed local checks, report this with the event log.",
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

export const explainApiError = (e: ApiError): Explanation => {
  const base = EXPLANATIONS[e.kind];
  const extra = e.kind === 'InvalidResponse' && e.path !== null ? ` (at ${e.path})` : '';
  return { summary: base.summary + extra, action: base.action };
};
