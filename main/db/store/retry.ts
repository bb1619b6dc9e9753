/**
 * The retry rule, the same for every transaction on every engine: PostgreSQL may abort a transaction
 * that conflicts with another (SQLSTATE 40001, serialisation failure; 40P01, deadlock). Such a
 * transaction changed nothing, and is run again only when its caller marked it `repeatable` (it talks
 * to the database only: no request to the service inside it). Any other transaction's abort reaches
 * its caller, who knows whether the outside world saw something. SQLite serialises its transactions
 * (BEGIN IMMEDIATE on one connection) and never aborts one this way.
 */
export const RETRYABLE_SQLSTATES: readonly string[] = ['40001', '40P01'];
export const MAX_ATTEMPTS = 5;

export const isConflictAbort = (e: unknown): boolean =>
  typeof e === 'object' && e !== null && RETRYABLE_SQLSTATES.includes(String((e as { code?: unknown }).code));

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `attempt`, again (with a short random pause) after a conflict abort when `repeatable`. */
export const withConflictRetry = async <T>(attempt: () => Promise<T>, repeatable: boolean): Promise<T> => {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (e) {
      if (!repeatable || !isConflictAbort(e) || n >= MAX_ATTEMPTS) throw e;
      await pause(Math.random() * 10 * 2 ** n);
    }
  }
};
