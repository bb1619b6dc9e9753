/**
 * The request budget every workstation of a study database shares (migration 220): a token bucket per
 * service profile and kind (`requests`: every request to the service; `uploads`: uploads alone). A
 * request takes its token in one statement, so two workstations can never both spend the last one:
 * on PostgreSQL the second UPDATE waits for the first and is computed again from the row it left.
 * Times are ISO-8601 text on the caller's clock (the engine's clock: the database's, on a server).
 */
import type { Queryable } from '../store/types';

export type BudgetKind = 'requests' | 'uploads';

export interface BucketTaken {
  /** Tokens left after this one was taken; below zero, the request waits its turn. */
  readonly tokens: number;
  /** Until when the service asked everybody to stop (a rate limit), or null. */
  readonly pausedUntil: string | null;
}

export interface BucketShape {
  readonly profileId: number;
  readonly kind: BudgetKind;
  readonly ratePerSecond: number;
  readonly burst: number;
}

/**
 * Takes one token: the bucket is first refilled for the time since it was last refilled (never above
 * the burst; a caller whose clock is behind refills nothing), then one token taken, even into debt (the
 * debt is the wait). A bucket not yet in the database starts full.
 */
export const takeBudgetToken = async (q: Queryable, b: BucketShape, nowIso: string): Promise<BucketTaken> => {
  const d = q.dialect;
  await q.run(
    `INSERT INTO request_budgets (profile_id, kind, tokens, refilled_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (profile_id, kind) DO NOTHING`,
    [b.profileId, b.kind, b.burst, nowIso],
  );
  const refilled = `tokens + ${d.greatest('0', d.secondsBetween('refilled_at', d.param('text')))} * ${d.param('real')}`;
  return (await q.get<BucketTaken>(
    `UPDATE request_budgets SET tokens = ${d.least(d.param('real'), refilled)} - 1,
       refilled_at = ${d.greatest('refilled_at', d.param('text'))}
     WHERE profile_id = ? AND kind = ? RETURNING tokens, paused_until AS "pausedUntil"`,
    [b.burst, nowIso, b.ratePerSecond, nowIso, b.profileId, b.kind],
  ))!;
};

/** After a rate limit: no workstation sends on this profile before `untilIso` (a later pause is kept). */
export const pauseBudget = async (q: Queryable, profileId: number, untilIso: string): Promise<void> => {
  const until = q.dialect.param('text');
  await q.run(
    `UPDATE request_budgets SET paused_until = CASE WHEN paused_until IS NULL OR paused_until < ${until} THEN ${until} ELSE paused_until END
     WHERE profile_id = ?`,
    [untilIso, untilIso, profileId],
  );
};

/** Gives back a token taken for a request that was not sent after all (never above the burst). */
export const refundBudgetToken = async (q: Queryable, b: BucketShape): Promise<void> => {
  await q.run(
    `UPDATE request_budgets SET tokens = ${q.dialect.least(q.dialect.param('real'), 'tokens + 1')}
     WHERE profile_id = ? AND kind = ?`,
    [b.burst, b.profileId, b.kind],
  );
};
