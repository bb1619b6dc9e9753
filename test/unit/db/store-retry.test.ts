/** The retry rule of the store's transactions (main/db/store/retry.ts), without a server. */
import { describe, expect, it } from 'vitest';
import {
  isConflictAbort,
  MAX_ATTEMPTS,
  MAX_PAUSE_MS,
  retryPauseMs,
  withConflictRetry,
} from '../../../main/db/store/retry';

const abort = (code: string) => Object.assign(new Error(`aborted ${code}`), { code });

const attemptsUntil = async (failures: Error[], repeatable: boolean) => {
  let attempts = 0;
  const pauses: number[] = [];
  const outcome = await withConflictRetry(
    async () => {
      attempts++;
      const next = failures.shift();
      if (next) throw next;
      return 'done';
    },
    repeatable,
    async (ms) => {
      pauses.push(ms);
    },
  ).catch((e: Error) => e);
  return { attempts, outcome, pauses };
};

describe('a transaction aborted by PostgreSQL', () => {
  it('is a conflict abort for a serialisation failure (40001) or a deadlock (40P01) only', () => {
    expect(isConflictAbort(abort('40001'))).toBe(true);
    expect(isConflictAbort(abort('40P01'))).toBe(true);
    expect(isConflictAbort(abort('23505'))).toBe(false);
    expect(isConflictAbort(new Error('no code'))).toBe(false);
  });

  it('is run again after a conflict abort when it is repeatable', async () => {
    const r = await attemptsUntil([abort('40001'), abort('40P01')], true);
    expect(r).toMatchObject({ attempts: 3, outcome: 'done' });
    expect(r.pauses).toHaveLength(2);
  });

  it('is not run again when it is not repeatable, nor after any other failure', async () => {
    const once = await attemptsUntil([abort('40001')], false);
    expect(once.attempts).toBe(1);
    expect(once.outcome).toMatchObject({ code: '40001' });
    const other = await attemptsUntil([abort('23505')], true);
    expect(other.attempts).toBe(1);
  });

  it('gives up after a bounded number of attempts', async () => {
    const failures = Array.from({ length: MAX_ATTEMPTS + 2 }, () => abort('40001'));
    const r = await attemptsUntil(failures, true);
    expect(r.attempts).toBe(MAX_ATTEMPTS);
    expect(r.outcome).toMatchObject({ code: '40001' });
    expect(r.pauses).toHaveLength(MAX_ATTEMPTS - 1);
  });

  it('pauses a random time up to a ceiling that doubles with each attempt, never above the cap', () => {
    const ceiling = (n: number) => retryPauseMs(n, () => 1);
    expect(ceiling(2)).toBe(2 * ceiling(1));
    expect(ceiling(3)).toBe(2 * ceiling(2));
    expect(ceiling(MAX_ATTEMPTS)).toBe(MAX_PAUSE_MS);
    expect(retryPauseMs(MAX_ATTEMPTS, () => 0.25)).toBe(MAX_PAUSE_MS / 4);
    expect(retryPauseMs(1, () => 0)).toBe(0);
  });
});
