/**
 * Service accounts for participants, created only after the researcher confirms (each is a request to
 * the service and, in v1.3, may count against the organisation). A participant's pending recordings
 * become queued once it has an account. Ambiguous attempts (the client retried after a request whose
 * answer was lost) are logged: each may have left an empty account on the service.
 */
import type { ApiError } from '../../shared/api/api-error';
import type { ApiClient } from '../api/client';
import type { Db } from '../db/open';
import { participantsWithoutAccountRows, recordCreatedAccount } from '../db/repos/participants.repo';

export interface AccountCreationReport {
  readonly created: readonly { code: string; accountId: string }[];
  readonly failed: readonly { code: string; error: ApiError }[];
  /** Attempts that may have created an unused account on the service. */
  readonly possibleOrphans: number;
}

export const participantsWithoutAccount = (
  db: Db,
  studyId: number,
  codes?: readonly string[],
): { id: number; code: string }[] => {
  const rows = participantsWithoutAccountRows(db, studyId);
  return codes ? rows.filter((r) => codes.includes(r.code)) : rows;
};

export const createMissingAccounts = async (
  db: Db,
  client: ApiClient,
  studyId: number,
  opts: { now: () => number; codes?: readonly string[] },
): Promise<AccountCreationReport> => {
  const created: { code: string; accountId: string }[] = [];
  const failed: { code: string; error: ApiError }[] = [];
  let possibleOrphans = 0;
  for (const p of participantsWithoutAccount(db, studyId, opts.codes)) {
    const res = await client.createAccount();
    const at = new Date(opts.now()).toISOString();
    if (!res.ok) {
      failed.push({ code: p.code, error: res.error });
      if (
        res.error.kind === 'Unauthorized' ||
        res.error.kind === 'Suspended' ||
        res.error.kind === 'ApiNotProvisioned'
      )
        break; // the same for every participant
      continue;
    }
    possibleOrphans += res.value.uncertainAttempts;
    const accountId = res.value.account.accountId;
    recordCreatedAccount(db, {
      studyId,
      participantId: p.id,
      accountId,
      at,
      uncertainAttempts: res.value.uncertainAttempts,
    });
    created.push({ code: p.code, accountId });
  }
  return { created, failed, possibleOrphans };
};
