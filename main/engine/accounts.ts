/**
 * Service accounts for participants, created only after the researcher confirms (each is a request to
 * the service and, in v1.3, may count against the organisation), and only for participants with at
 * least one file waiting to be sent. A participant's pending recordings become queued once it has an
 * account.
 *
 * No duplicate accounts: the intent is committed before each request (account-intents.repo.ts). A
 * request whose outcome is unknown (timeout or 5xx after sending, an unreadable answer) is not repeated:
 * the participant is marked "account uncertain" with what is known, and the researcher decides (ask
 * again, link an account id, or leave it), as with uncertain uploads. An answer that carries an
 * `account_id` is kept even when another field is odd (the reader flags it).
 */
import type { ApiError } from '../../shared/api/api-error';
import { iso } from '../../shared/iso';
import type { ApiClient } from '../api/client';
import type { Store } from '../db/store/types';
import {
  beginAccountRequest,
  clearAccountRequest,
  markAccountUncertain,
  participantsNeedingAccountRows,
  recordCreatedAccount,
  recoverInterruptedAccountRequests,
} from '../db/repos/account-intents.repo';

export interface AccountCreationReport {
  readonly created: readonly { code: string; accountId: string }[];
  readonly failed: readonly { code: string; error: ApiError }[];
  /** Requests whose outcome is unknown: the participant is marked "account uncertain", the researcher decides. */
  readonly uncertain: readonly { code: string; error: ApiError }[];
  /** Kept for the window's report: requests that may have left an unused account (= uncertain ones). */
  readonly possibleOrphans: number;
}

/** Participants that need an account now: none yet, none uncertain, at least one file to send. */
export const participantsWithoutAccount = async (
  store: Store,
  studyId: number,
  codes?: readonly string[],
): Promise<{ id: number; code: string }[]> => {
  const rows = await participantsNeedingAccountRows(store, studyId);
  return codes ? rows.filter((r) => codes.includes(r.code)) : rows;
};

const UNCERTAIN_REASON: Partial<Record<ApiError['kind'], string>> = {
  Timeout: 'The service did not answer in time; it may have created the account.',
  NetworkError: 'The connection broke after the request was sent; the service may have created the account.',
  ServerError: 'The service failed while handling the request; it may have created the account.',
  InvalidResponse: 'The service answered, but its answer could not be read; it may have created the account.',
};

/**
 * No account request can stay open longer than this (the client's timeouts and its retries of requests
 * that never left): an older open intent was interrupted.
 */
export const ACCOUNT_REQUEST_STALE_MS = 10 * 60_000;

/** Open account intents left by a process that stopped become "account uncertain". Returns their participant ids. */
export const recoverAccountRequests = (store: Store, nowMs: number): Promise<number[]> =>
  recoverInterruptedAccountRequests(
    store,
    new Date(nowMs).toISOString(),
    new Date(nowMs - ACCOUNT_REQUEST_STALE_MS).toISOString(),
  );

export const createMissingAccounts = async (
  store: Store,
  client: ApiClient,
  studyId: number,
  opts: { now: () => number; codes?: readonly string[] },
): Promise<AccountCreationReport> => {
  const created: { code: string; accountId: string }[] = [];
  const failed: { code: string; error: ApiError }[] = [];
  const uncertain: { code: string; error: ApiError }[] = [];
  const now = () => iso(opts.now());
  await recoverAccountRequests(store, opts.now());
  for (const p of await participantsWithoutAccount(store, studyId, opts.codes)) {
    // The intent is committed before the request is sent.
    if (!(await beginAccountRequest(store, p.id, now()))) continue; // another request is open for this participant
    const res = await client.createAccount();
    const at = now();
    if (!res.ok) {
      const { outcomeUnknown, ...error } = res.error;
      if (outcomeUnknown) {
        await markAccountUncertain(
          store,
          p.id,
          at,
          UNCERTAIN_REASON[error.kind] ?? 'The answer was lost; the service may have created the account.',
          error,
        );
        uncertain.push({ code: p.code, error });
        continue;
      }
      await clearAccountRequest(store, p.id);
      failed.push({ code: p.code, error });
      if (error.kind === 'Unauthorized' || error.kind === 'Suspended' || error.kind === 'ApiNotProvisioned')
        break; // the same for every participant
      continue;
    }
    const accountId = res.value.account.accountId;
    await recordCreatedAccount(store, {
      studyId,
      participantId: p.id,
      accountId,
      at,
      uncertainAttempts: res.value.uncertainAttempts,
    });
    created.push({ code: p.code, accountId });
  }
  return { created, failed, uncertain, possibleOrphans: uncertain.length };
};
