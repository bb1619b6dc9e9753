/**
 * For a recording that needs the researcher: what happened and what to do, in their words, from its
 * upload state, the service's refusal or the local verdict, and its analyses' states. Also whether
 * doing it again is safe: only what certainly cost nothing (a rejected upload) or costs nothing (asking
 * for results again); never an upload whose outcome is unknown.
 */
import { z } from 'zod';
import { ApiError, type ApiErrorKind } from './api/api-error';
import { explainApiError } from './api/api-error-explained';
import { ANALYSIS_NAME, type AnalysisType } from './api/vocabulary';
import { UsageSchema } from './contract/views';
import type { AnalysisState, UploadState, VerdictView } from './study';

export interface Problem {
  readonly summary: string;
  readonly action: string;
}

/**
 * A stored refusal is read tolerantly: one written before a field of ApiError existed, or with a field
 * left out, keeps its kind and endpoint and reads the missing fields as null. Without this it would
 * match the local-reason shape below and lose its kind.
 */
const StoredApiError = ApiError.extend({
  status: ApiError.shape.status.default(null),
  serviceType: ApiError.shape.serviceType.default(null),
  serviceMessage: ApiError.shape.serviceMessage.default(null),
  retryAfterMs: ApiError.shape.retryAfterMs.default(null),
  path: ApiError.shape.path.default(null),
  detail: ApiError.shape.detail.default(null),
});

/**
 * What `recordings.upload_error` holds: the service's refusal; or a local reason (file gone, conversion
 * failed) or an uncertain upload's record (why, the error, the usage read before and after), with the
 * researcher's resolution once they decided.
 */
export const StoredUploadErrorSchema = z.union([
  StoredApiError,
  z.object({
    reason: z.string().optional(),
    error: ApiError.nullable().optional(),
    resolution: z.string().optional(),
    usageBefore: UsageSchema.nullable().optional(),
    usageAfter: UsageSchema.nullable().optional(),
  }),
]);
export type StoredUploadError = z.infer<typeof StoredUploadErrorSchema>;

export interface RecordingFactsForProblem {
  readonly uploadState: UploadState;
  readonly analyses: readonly { readonly type: AnalysisType; readonly state: AnalysisState }[];
  readonly verdict: VerdictView | null;
  readonly uploadError: StoredUploadError | null;
}

const list = (types: readonly AnalysisType[]) => types.map((t) => ANALYSIS_NAME[t]).join(', ');

const isApiError = (e: StoredUploadError): e is ApiError => 'kind' in e && 'endpoint' in e;

/** Refusals that will not change if the same file is sent again. */
const PERMANENT: ReadonlySet<ApiErrorKind> = new Set([
  'TooLarge',
  'BadRequest',
  'SpeakerSpeechTooShort',
  'RecordingTooLongForIsolation',
]);

export const problemOf = (f: RecordingFactsForProblem): Problem | null => {
  switch (f.uploadState) {
    case 'refused_locally': {
      // A borderline file the researcher did not choose to send is held for their decision, not refused.
      const borderline = f.verdict?.findings.find((x) => x.code === 'speech_borderline');
      if (f.verdict?.status === 'borderline' && borderline)
        return {
          summary: `Held, not sent: ${borderline.message}`,
          action: `${borderline.action} To send it: Curation, Send anyway.`,
        };
      const refusals = f.verdict?.findings.filter((x) => x.severity === 'refuse') ?? [];
      const first = refusals[0];
      if (!first) return { summary: 'Refused by the local checks.', action: 'Open the file to see why.' };
      return { summary: refusals.map((x) => x.message).join(' '), action: first.action };
    }
    case 'rejected': {
      const e = f.uploadError;
      if (e && isApiError(e)) {
        const x = explainApiError(e);
        return {
          summary: x.summary + (e.serviceMessage ? ` The service said: "${e.serviceMessage}"` : ''),
          action: x.action,
        };
      }
      return {
        summary: (e && !isApiError(e) ? e.reason : undefined) ?? 'The service refused this file.',
        action: 'Fix the cause, then retry: nothing was charged.',
      };
    }
    case 'upload_uncertain': {
      const e = f.uploadError;
      return {
        summary:
          (e && !isApiError(e) ? e.reason : undefined) ??
          'It is not known whether the service received this upload.',
        action:
          'Decide: send it again (it may be charged twice), give it up, or mark it as uploaded elsewhere. Voicescope never re-sends it on its own.',
      };
    }
    case 'duplicate':
      return {
        summary: 'The same audio was already imported for this participant, so it was not sent.',
        action: 'Send it anyway only if it really is a different session.',
      };
    case 'pending':
      return {
        summary: 'Waiting for a service account for this participant.',
        action: 'Create the missing accounts (Participants) or link an existing one.',
      };
    case 'cancelled': {
      // A decision on an uncertain upload also ends here: it may well have been sent, so "never sent" would be false.
      const e = f.uploadError;
      const resolution = e && !isApiError(e) ? e.resolution : undefined;
      if (resolution === 'mark_uploaded_elsewhere') {
        return {
          summary:
            'You marked this upload, whose outcome was unknown, as uploaded elsewhere; Voicescope does not send it again and holds no results for it.',
          action: 'Nothing to do here; its results are wherever it was uploaded.',
        };
      }
      if (resolution === 'cancel') {
        return {
          summary:
            'You gave up this upload, whose outcome was unknown; it is not sent again. The service may have received (and charged) it.',
          action: 'Import the file again only if you want it analysed; it may then be charged twice.',
        };
      }
      return {
        summary: 'Withdrawn when its batch was cancelled; it was never sent.',
        action: 'Import the file again to send it.',
      };
    }
    case 'uploaded': {
      const failed = f.analyses.filter((a) => a.state === 'error').map((a) => a.type);
      const late = f.analyses.filter((a) => a.state === 'timed_out').map((a) => a.type);
      const unanswered = f.analyses.filter((a) => a.state === 'unanswered').map((a) => a.type);
      if (failed.length) {
        return {
          summary: `The service could not analyse ${list(failed)} for this recording (it gives no reason).`,
          action:
            'Check the audio (speech, noise, one speaker). Sending it again costs a credit and usually fails the same way.',
        };
      }
      if (unanswered.length && !late.length) {
        return {
          summary: `The service never answered for ${list(unanswered)}: no result after five minutes and a day of re-checks.`,
          action: '"Check again" asks the service once more; Voicescope does not ask again on its own.',
        };
      }
      if (late.length) {
        return {
          summary: `No ${list(late)} result after five minutes.`,
          action: 'Voicescope keeps checking every 10 minutes for a day; "Check again" asks now.',
        };
      }
      return null;
    }
    case 'queued':
    case 'uploading':
      return null;
  }
};

/** True when doing it again is safe: a rejected upload (nothing charged) that may now succeed, or timed-out or unanswered results to ask for again. */
export const retryable = (f: RecordingFactsForProblem): boolean => {
  if (f.uploadState === 'rejected') {
    const e = f.uploadError;
    return !(e && isApiError(e) && PERMANENT.has(e.kind));
  }
  return (
    f.uploadState === 'uploaded' &&
    f.analyses.some((a) => a.state === 'timed_out' || a.state === 'unanswered')
  );
};
