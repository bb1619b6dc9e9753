/**
 * Failures of the study database that the researcher can do something about (a full disk, a
 * read-only drive, a file locked by another program, a damaged file, a drive that fails, a folder
 * that cannot be opened, a database from a newer Voicescope), recognised from SQLite's error codes and
 * told in the researcher's words with what to do. Pure: no I/O, so the IPC router can map any caught
 * error through it. Anything else (a constraint, out of memory, a programming error) is not a
 * DbProblem: the caller treats it as an internal error.
 */
import { dirname } from 'node:path';
import { DatabaseFromFutureError } from './migrate';
import { isConnectionLost } from './store/connection-watch';

export const DB_PROBLEM_CODES = [
  'DISK_FULL',
  'DB_READONLY',
  'DB_BUSY',
  'DB_CORRUPT',
  'DB_IO',
  'DB_CANTOPEN',
  'DB_TOO_NEW',
  'DB_CONNECTION_LOST',
] as const;
export type DbProblemCode = (typeof DB_PROBLEM_CODES)[number];

export interface DbProblem {
  readonly code: DbProblemCode;
  /** What happened, in the researcher's words. */
  readonly message: string;
  /** What to do about it. */
  readonly action: string;
  /** Trying the same again later may succeed without the researcher (a lock another program holds). */
  readonly retryable: boolean;
  /** SQLite's own (extended) code, e.g. `SQLITE_IOERR_WRITE`, for the event log and bug reports. */
  readonly sqliteCode: string | null;
}

export interface DbErrorContext {
  /** The database file, so the message can name the folder (and so the drive) concerned. */
  readonly dbPath?: string;
}

const NOTHING_LOST =
  'Nothing was lost: everything finished before this is saved, and what was interrupted is taken up again.';

/** The code of a better-sqlite3 SqliteError (or of an error that wraps one as its cause). */
const sqliteCodeOf = (e: unknown): string | null => {
  let cur: unknown = e;
  for (let depth = 0; depth < 4 && cur !== null && typeof cur === 'object'; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('SQLITE_')) return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return null;
};

const problem = (
  code: DbProblemCode,
  message: string,
  action: string,
  sqliteCode: string | null,
  retryable = false,
): DbProblem => ({ code, message, action, retryable, sqliteCode });

/** A study database on a server went away mid-way (./store/connection-watch.ts); the store reconnects by itself. */
const CONNECTION_LOST = problem(
  'DB_CONNECTION_LOST',
  'The connection to the study database was lost, so this was not saved; nothing of it was kept half-way.',
  'Voicescope reconnects by itself: try again once it says the connection is back.',
  null,
  true,
);

/** Recognises a database failure the researcher can act on; null for anything else. */
export const classifyDbError = (e: unknown, ctx: DbErrorContext = {}): DbProblem | null => {
  const folder = ctx.dbPath ? `the folder ${dirname(ctx.dbPath)}` : 'the Voicescope workspace folder';
  if (e instanceof DatabaseFromFutureError) {
    return problem(
      'DB_TOO_NEW',
      e.message,
      'Install the newer Voicescope that wrote it (or open another workspace). The file was not changed.',
      null,
    );
  }
  // better-sqlite3 refuses a missing folder before SQLite is asked, with a plain TypeError.
  if (e instanceof TypeError && /directory does not exist/i.test(e.message)) {
    return problem(
      'DB_CANTOPEN',
      'The study database could not be opened: its folder does not exist.',
      `Check that ${folder} exists and that its drive is connected, or choose another workspace.`,
      null,
    );
  }
  const code = sqliteCodeOf(e);
  if (code === null) return isConnectionLost(e) ? CONNECTION_LOST : null;
  const base = code.replace(/^(SQLITE_[A-Z]+)(_.*)?$/, '$1');
  switch (base) {
    case 'SQLITE_FULL':
      return problem(
        'DISK_FULL',
        'The disk that holds the study database is full, so Voicescope could not save its work.',
        `Free space on the drive that holds ${folder} (or move the workspace to a larger drive), then try again. ${NOTHING_LOST}`,
        code,
      );
    case 'SQLITE_READONLY':
      if (code === 'SQLITE_READONLY_DBMOVED') {
        return problem(
          'DB_READONLY',
          'The study database file was moved, renamed or deleted while Voicescope was using it, so nothing more can be saved to it.',
          `Put the file back in ${folder} and start Voicescope again. ${NOTHING_LOST}`,
          code,
        );
      }
      return problem(
        'DB_READONLY',
        'The study database cannot be written: the file or its drive is read-only.',
        `Make ${folder} writable (a write-protected or read-only drive, a share mounted read-only, or file permissions), then try again. ${NOTHING_LOST}`,
        code,
      );
    case 'SQLITE_PERM':
    case 'SQLITE_AUTH':
      return problem(
        'DB_READONLY',
        'Voicescope is not allowed to write the study database.',
        `Give your user account write access to ${folder}, then try again. ${NOTHING_LOST}`,
        code,
      );
    case 'SQLITE_BUSY':
    case 'SQLITE_LOCKED':
    case 'SQLITE_PROTOCOL':
      return problem(
        'DB_BUSY',
        'The study database is locked by another program (another Voicescope, a backup or a sync tool) and stayed locked too long.',
        'Close the other program or wait for it to finish; Voicescope tries again by itself.',
        code,
        true,
      );
    case 'SQLITE_CORRUPT':
    case 'SQLITE_NOTADB':
      return problem(
        'DB_CORRUPT',
        code === 'SQLITE_NOTADB'
          ? 'This file is not a Voicescope study database (or it is damaged beyond recognition).'
          : 'The study database file is damaged. Voicescope has stopped writing to it so that nothing more is changed.',
        `Do not delete it. Close Voicescope, keep a copy of ${ctx.dbPath ?? 'the database file'}, and restore it from your last backup (or send the copy to support).`,
        code,
      );
    case 'SQLITE_IOERR':
    case 'SQLITE_NOLFS':
      return problem(
        'DB_IO',
        'The drive that holds the study database reported an error while reading or writing it.',
        `Check the drive that holds ${folder} (reconnect an external or network drive), then try again. ${NOTHING_LOST}`,
        code,
      );
    case 'SQLITE_CANTOPEN':
      return problem(
        'DB_CANTOPEN',
        'The study database could not be opened.',
        `Check that ${folder} exists, that its drive is connected and that it is writable (a study database also needs to create small companion files beside it).`,
        code,
      );
    default:
      // Constraints, misuse, out of memory: not the researcher's to fix.
      return null;
  }
};

/** One line for logs and banners: the message, what it stopped (when said), and the action. */
export const describeDbProblem = (p: DbProblem, stopped?: string): string =>
  `${p.message}${stopped ? ` ${stopped}` : ''} ${p.action}`;
