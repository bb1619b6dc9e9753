/**
 * The write-ahead protocol for service accounts, like the one for uploads (uploads.repo.ts):
 *
 *   no account ──beginAccountRequest──▶ requested ──created──▶ account_id stored, files queued
 *                                                 ──refused──▶ no account (intent cleared; may be asked again)
 *                                                 ──unknown──▶ account uncertain (the researcher decides)
 *
 * The intent is committed before POST /accounts is sent. v1.3 cannot list accounts, so an account
 * created by a request whose answer was lost could never be found again: such a request is never
 * repeated on its own. The researcher decides: ask again (a second account may be created), link an
 * account id found by other means (participants.repo.ts linkAccount), or leave the participant
 * without an account (its files stay unsent). A request left open by a process that stopped becomes
 * uncertain too.
 */
import type { ApiError } from '../../../shared/api/api-error';
import { UncertainAccountSchema } from '../../../shared/contract/participants.contract';
import { jsonColumn } from '../json-column';
import type { Queryable, Store } from '../store/types';
import { appendEvent } from './event-log.repo';

/** What is known about an account request whose outcome is unknown (stored as JSON on the participant). */
export interface AccountUncertainty {
  /** When the request was sent (workstation clock). */
  readonly requestedAt: string;
  /** In the researcher's words. */
  readonly reason: string;
  readonly error: ApiError | null;
  /** The researcher's decision so far: null while open; 'leave' keeps the participant without account. */
  readonly resolution: 'leave' | null;
}

/** `participants.account_uncertain`: what is known of an account request whose outcome is unknown. */
const accountUncertain = jsonColumn(
  'participants',
  'account_uncertain',
  UncertainAccountSchema.pick({ requestedAt: true, reason: true, error: true, resolution: true }),
);

/**
 * Participants that need an account and may have one requested now: no account, no request open or
 * uncertain, and at least one file waiting to be sent (no account for a participant with
 * nothing to upload).
 */
export const participantsNeedingAccountRows = (
  q: Queryable,
  studyId: number,
): Promise<{ id: number; code: string }[]> =>
  q.all<{ id: number; code: string }>(
    `SELECT p.id, p.code FROM participants p
     WHERE p.study_id = ? AND p.account_id IS NULL AND p.account_requested_at IS NULL AND p.account_uncertain IS NULL
       AND EXISTS (SELECT 1 FROM recordings r WHERE r.participant_id = p.id AND r.upload_state = 'pending')
     ORDER BY ${q.dialect.binary('p.code')}`,
    [studyId],
  );

/**
 * Commits the intent to request an account (committed when this resolves, before anything is sent);
 * false (nothing sent) when another request is open or one exists.
 */
export const beginAccountRequest = (store: Store, participantId: number, at: string): Promise<boolean> =>
  store.transaction(
    async (tx) => {
      const p = await tx.get<{ study_id: number }>(
        `UPDATE participants SET account_requested_at = ?
         WHERE id = ? AND account_id IS NULL AND account_requested_at IS NULL AND account_uncertain IS NULL
         RETURNING study_id`,
        [at, participantId],
      );
      if (!p) return false;
      await appendEvent(tx, at, 'account_intent', { studyId: p.study_id }, { participant_id: participantId });
      return true;
    },
    { repeatable: true },
  );

/**
 * A service account was created for the participant: it is stored, the participant's recordings that
 * waited for it are queued, and the creation (and any uncertain attempts) logged, in one transaction.
 */
export const recordCreatedAccount = (
  store: Store,
  a: { studyId: number; participantId: number; accountId: string; at: string; uncertainAttempts: number },
): Promise<void> =>
  store.transaction(
    async (tx) => {
      await tx.run(`UPDATE participants SET account_id = ?, account_created_at = ? WHERE id = ?`, [
        a.accountId,
        a.at,
        a.participantId,
      ]);
      await tx.run(
        `UPDATE recordings SET upload_state = 'queued' WHERE participant_id = ? AND upload_state = 'pending'`,
        [a.participantId],
      );
      // The account's id stays on the participant (the link, which analysts and monitors may not read);
      // the event log, which every role reads for its sites, says only that it was created.
      await appendEvent(
        tx,
        a.at,
        'account_created',
        { studyId: a.studyId },
        { participant_id: a.participantId, uncertain_attempts: a.uncertainAttempts },
      );
      if (a.uncertainAttempts > 0)
        await appendEvent(
          tx,
          a.at,
          'account_creation_uncertain',
          { studyId: a.studyId },
          { participant_id: a.participantId, attempts: a.uncertainAttempts },
        );
    },
    { repeatable: true },
  );

/** The service certainly created no account (refused, or the request never left): the intent is cleared. */
export const clearAccountRequest = async (q: Queryable, participantId: number): Promise<void> => {
  await q.run(
    `UPDATE participants SET account_requested_at = NULL WHERE id = ? AND account_id IS NULL AND account_uncertain IS NULL`,
    [participantId],
  );
};

/** The outcome is unknown: the participant is marked "account uncertain", with what is known. */
export const markAccountUncertain = (
  store: Store,
  participantId: number,
  at: string,
  reason: string,
  error: ApiError | null,
): Promise<void> =>
  store.transaction(
    async (tx) => {
      const p = await tx.get<{ study_id: number; account_requested_at: string | null }>(
        `SELECT study_id, account_requested_at FROM participants WHERE id = ?`,
        [participantId],
      );
      if (!p) return;
      const u: AccountUncertainty = {
        requestedAt: p.account_requested_at ?? at,
        reason,
        error,
        resolution: null,
      };
      await tx.run(`UPDATE participants SET account_uncertain = ? WHERE id = ? AND account_id IS NULL`, [
        JSON.stringify(u),
        participantId,
      ]);
      await appendEvent(
        tx,
        at,
        'account_uncertain',
        { studyId: p.study_id },
        { participant_id: participantId, reason, kind: error?.kind ?? null, status: error?.status ?? null },
      );
    },
    { repeatable: true },
  );

/**
 * Account requests interrupted after their intent was written (crash, kill, power loss) become
 * uncertain. Only intents older than `staleBefore` count: a younger one may still be in flight in
 * another Voicescope process on the same workspace. Returns their participant ids.
 */
export const recoverInterruptedAccountRequests = async (
  store: Store,
  at: string,
  staleBefore: string,
): Promise<number[]> => {
  const rows = await store.all<{ id: number }>(
    `SELECT id FROM participants
     WHERE account_requested_at IS NOT NULL AND account_requested_at < ? AND account_id IS NULL AND account_uncertain IS NULL`,
    [staleBefore],
  );
  for (const r of rows)
    await markAccountUncertain(
      store,
      r.id,
      at,
      'Voicescope stopped while the account was being requested; the service may have created it.',
      null,
    );
  return rows.map((r) => r.id);
};

export interface UncertainAccountRow {
  readonly id: number;
  readonly code: string;
  readonly uncertainty: AccountUncertainty;
}

/** The study's participants whose account request has an unknown outcome (including those left so), by code. */
export const uncertainAccountRows = async (q: Queryable, studyId: number): Promise<UncertainAccountRow[]> =>
  (
    await q.all<{ id: number; code: string; account_uncertain: string }>(
      `SELECT id, code, account_uncertain FROM participants WHERE study_id = ? AND account_id IS NULL AND account_uncertain IS NOT NULL ORDER BY code`,
      [studyId],
    )
  ).map(({ id, code, account_uncertain }) => ({
    id,
    code,
    uncertainty: accountUncertain.decode(account_uncertain),
  }));

/**
 * The researcher's decision on an uncertain account: `retry` clears the mark so the next account
 * creation asks again (a second account may be created); `leave` keeps the participant without an
 * account, never asks again on its own, and withdraws its files that waited for it. Linking an existing account id goes through linkAccount,
 * which clears the mark. False when the participant has no uncertain account request.
 */
export const resolveUncertainAccount = (
  store: Store,
  participantId: number,
  decision: 'retry' | 'leave',
  at: string,
): Promise<boolean> =>
  store.transaction(
    async (tx) => {
      const p = await tx.get<{ study_id: number; account_uncertain: string }>(
        `SELECT study_id, account_uncertain FROM participants WHERE id = ? AND account_id IS NULL AND account_uncertain IS NOT NULL`,
        [participantId],
      );
      if (!p) return false;
      if (decision === 'retry')
        await tx.run(
          `UPDATE participants SET account_uncertain = NULL, account_requested_at = NULL WHERE id = ?`,
          [participantId],
        );
      else {
        await tx.run(`UPDATE participants SET account_uncertain = ? WHERE id = ?`, [
          JSON.stringify({ ...accountUncertain.decode(p.account_uncertain), resolution: 'leave' }),
          participantId,
        ]);
        // Its files waiting for the account are withdrawn: never sent (import them again to send them).
        await tx.run(
          `UPDATE recordings SET upload_state = 'cancelled' WHERE participant_id = ? AND upload_state = 'pending'`,
          [participantId],
        );
      }
      await appendEvent(
        tx,
        at,
        'account_uncertain_resolved',
        { studyId: p.study_id },
        { participant_id: participantId, decision },
      );
      return true;
    },
    { repeatable: true },
  );
