/**
 * The API client: every endpoint of the specification, both versions, over ky. Answers are read
 * tolerantly, part by part (shared/api/read/answers.ts): odd values are kept and flagged, and only an
 * answer that cannot be read at all is an error. Failures come back as typed values (`ApiError`), never
 * thrown. Retries follow retry-policy.ts; ky's own retry is off.
 *
 * The client is a context (client-exchange.ts: the options with their defaults, one attempt, the
 * retry loop) and one function per endpoint taking it (client-endpoints.ts).
 */
import { clientContext } from './client-exchange';
import { createAccount, getAnalysis, getUsage, ping, upload } from './client-endpoints';
import type { ApiClient, ClientOptions } from './client-types';

export type {
  AccountCreation,
  AccountRequestError,
  ApiClient,
  ClientOptions,
  ExchangeEvent,
  ServiceProfile,
  UploadRequest,
} from './client-types';

export const createApiClient = (opts: ClientOptions): ApiClient => {
  const cx = clientContext(opts);
  return {
    profile: { baseUrl: cx.profile.baseUrl, version: cx.version },
    serviceClockOffsetMs: () => cx.clock.offsetMs,
    ping: () => ping(cx),
    createAccount: () => createAccount(cx),
    upload: (req) => upload(cx, req),
    getAnalysis: (recordingId, types) => getAnalysis(cx, recordingId, types),
    getUsage: () => getUsage(cx),
  };
};
