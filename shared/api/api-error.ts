/**
 * Typed API failures, as plain serialisable values (they cross IPC intact, unlike Error subclasses).
 * `classifyHttpError` maps status and the service's `type` to a kind; `explainApiError`
 * (api-error-explained.ts, which imports only this module's types and no zod, so the window's first
 * screen loads without zod) says, in a researcher's words, what went wrong and what to do.
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
