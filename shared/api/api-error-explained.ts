/**
 * A service error explained in a researcher's words: what went wrong and what to do. Kept apart from
 * api-error.ts's schemas, and free of zod, so the window's first screen, whose error notice uses it,
 * loads without zod. api-error.ts re-exports it.
 */
import type { ApiError, ApiErrorKind } from './api-error';

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
