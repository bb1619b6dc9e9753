/**
 * The retry rule, the same for every transaction on every engine: PostgreSQL may abort a transaction
 * that conflicts with another (SQLSTATE 40001, serialisation failure; 40P01, deadlock). Such a
 * transaction changed nothing, and is run again only when its caller marked it `repeatable` (it talks
 * to the database only: no request to the service inside it). Any other transaction's abort reaches
 * its caller, who knows whether the outside world saw something. SQLite serialises its transactions
 * (BEGIN IMMEDIATE on one connection) and never aborts one this way.
 */
export const RETRYABLE_SQLSTATES: readonly string[] = ['40001', '40P01'];
/**
 * Attempts before the abort reaches the caller. Writers of one participant's recordings abort one
 * another often: each change refreshes the participant's counters, which reads every recording of the
 * participant (test/integration/db/serialisable-retry.slow.test.ts: 9 writers of 3 participants' 72
 * recordings aborted 367 of 655 attempts, and 44 of 288 steps ran out of 5 attempts with pauses of at
 * most 300 ms in all).
 */
export const MAX_ATTEMPTS = 20;
/** The longest pause before one attempt, and the first pause's ceiling. */
export const MAX_PAUSE_MS = 1_000;
const FIRST_PAUSE_MS = 20;

export const isConflictAbort = (e: unknown): boolean =>
  typeof e === 'object' && e !== null && RETRYABLE_SQLSTATES.includes(String((e as { code?: unknown }).code));

/**
 * The pause after the `n`th aborted attempt: a random time up to a ceiling that doubles with each
 * attempt ("full jitter", so writers that collided do not collide again in step), capped.
 */
export const retryPauseMs = (n: number, random: () => number = Math.random): number =>
  random() * Math.min(MAX_PAUSE_MS, FIRST_PAUSE_MS * 2 ** (n - 1));

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `attempt`, again (after `retryPauseMs`) after a conflict abort when `repeatable`. */
export const withConflictRetry = async <T>(
  attempt: () => Promise<T>,
  repeatable: boolean,
  pause: (ms: number) => Promise<void> = sleep,
): Promise<T> => {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (e) {
      if (!repeatable || !isConflictAbort(e) || n >= MAX_ATTEMPTS) throw e;
      await pause(retryPauseMs(n));
    }
  }
};
