/**
 * What an exception escaping a handler means to the researcher. The study database's own failures
 * (disk full, read-only, busy, damaged, I/O) are named in their words by main/db/db-errors.ts;
 * everything else is INTERNAL and its details stay in the log.
 */
import { appError, type AppError } from '../../shared/rpc';
import { classifyDbError } from '../db/db-errors';

export const classifyThrown = (e: unknown, dbPath?: string): AppError => {
  const db = classifyDbError(e, dbPath ? { dbPath } : {});
  if (db) return appError(db.code, db.message, db.action, { retryable: db.retryable });
  return appError(
    'INTERNAL',
    'Something went wrong inside Voicescope.',
    'Try again; if it happens again, report it with the steps that led here.',
  );
};
