/**
 * Where the engine's request budgets live. On a database that several workstations share (a server),
 * in the database (main/db/repos/request-budget.repo.ts): every request of every workstation takes its
 * token there, so the service sees no more than the study's budget whatever the number of
 * workstations. On SQLite, which one workstation uses, in this process (poll-schedule.ts): the same
 * bucket without a write per request, and requests keep flowing when the disk refuses writes.
 */
import { iso } from '../../shared/iso';
import {
  pauseBudget,
  refundBudgetToken,
  takeBudgetToken,
  type BucketShape,
} from '../db/repos/request-budget.repo';
import type { Store } from '../db/store/types';
import { createTokenBucket, inProcessBudget, type RequestBudget } from '../jobs/poll-schedule';

/** A budget kept in the database; the pause after a rate limit is also kept here, in case the write fails. */
const storedBudget = (store: Store, shape: BucketShape, now: () => number): RequestBudget => {
  let pausedUntil = 0;
  return {
    async reserve() {
      const t = now();
      const taken = await takeBudgetToken(store, shape, iso(t));
      const debtMs = taken.tokens >= 0 ? 0 : (-taken.tokens / shape.ratePerSecond) * 1000;
      const paused = Math.max(pausedUntil, taken.pausedUntil === null ? 0 : Date.parse(taken.pausedUntil));
      return Math.max(debtMs, paused - t);
    },
    refund: () => refundBudgetToken(store, shape),
    pauseUntil(untilMs) {
      pausedUntil = Math.max(pausedUntil, untilMs);
      pauseBudget(store, shape.profileId, iso(untilMs)).catch((e: unknown) =>
        console.error('request budget: the pause could not be shared with other workstations', e),
      );
    },
  };
};

/** The budget of this kind for the profile, where the study's database says it belongs. */
export const requestBudget = (store: Store, shape: BucketShape, now: () => number): RequestBudget =>
  store.dialect.sharedByWorkstations
    ? storedBudget(store, shape, now)
    : inProcessBudget(createTokenBucket(shape.ratePerSecond, shape.burst, now));
