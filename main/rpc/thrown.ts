/**
 * What an exception escaping a handler means to the researcher. SQLite's own failures (disk full,
 * read-only, busy, corrupt) are named; everything else is INTERNAL and its details stay in the log.
 */
import { appError, type AppError } from '../../shared/rpc';

const sqliteCode = (e: unknown): string | null =>
  typeof e === 'object' && e !== null && 'code' in e && typeof (e as { code: unknown }).code === 'string' && (e as { code: string }).code.startsWith('SQLITE_')
    ? (e as { code: string }).code : null;

export const classifyThrown = (e: unknown): AppError => {
  const code = sqliteCode(e);
  if (code === 'SQLITE_FULL') {
    return appError('DISK_FULL', 'The disk that holds the study database is full, so nothing could be saved.', 'Free some space on that disk, then try again. Work saved before this moment is kept.', { retryable: true });
  }
  if (code?.startsWith('SQLITE_READONLY')) {
    return appError('DB_READONLY', 'The study database cannot be written (the file or its folder is read-only).', 'Check that the workspace folder is on a writable disk and that you may write to it, then restart Voicescope.');
  }
  if (code?.startsWith('SQLITE_BUSY') || code?.startsWith('SQLITE_LOCKED')) {
    return appError('DB_BUSY', 'The study database is busy (another Voicescope may be using it).', 'Try again in a moment; close other Voicescope windows or command-line runs on the same workspace.', { retryable: true });
  }
  if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB') {
    return appError('DB_CORRUPT', 'The study database file is damaged.', 'Stop using this workspace and restore it from your latest study archive; keep the damaged file for support.');
  }
  if (code?.startsWith('SQLITE_IOERR')) {
    return appError('DB_IO', 'The disk could not read or write the study database.', 'Check the disk (or the network drive) that holds the workspace, then try again.', { retryable: true });
  }
  return appError('INTERNAL', 'Something went wrong inside Voicescope.', 'Try again; if it happens again, report it with the steps that led here.');
};
