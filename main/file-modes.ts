/**
 * Private files whatever existed before: the workspace folder and its folders 0700, the study
 * database (and its WAL and SHM companions), key files, logs and archives 0600. A file or folder an
 * earlier version or the user made wider is narrowed when Voicescope opens it, and the log says so
 * (through the console, which the hosts route into the log). On Windows there are no such modes; the
 * functions do nothing there.
 */
import { chmodSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

const modesExist = process.platform !== 'win32';

/**
 * Narrows `path` to `mode` when it allows more (links are left alone); true when it was changed.
 * A path that does not exist or cannot be changed (someone else's file) is left as it is.
 */
export const narrowMode = (path: string, mode: number): boolean => {
  if (!modesExist) return false;
  try {
    const s = lstatSync(path);
    if (s.isSymbolicLink()) return false;
    if ((s.mode & 0o777 & ~mode) === 0) return false;
    chmodSync(path, s.mode & 0o777 & mode);
    return true;
  } catch {
    return false;
  }
};

/** Narrows a folder and everything in it (folders to 0700, files to 0600), to `depth` levels. */
export const narrowTree = (dir: string, depth = 4): string[] => {
  const changed: string[] = [];
  if (!modesExist) return changed;
  if (narrowMode(dir, PRIVATE_DIR_MODE)) changed.push(dir);
  if (depth <= 0) return changed;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return changed;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) changed.push(...narrowTree(p, depth - 1));
    else if (e.isFile() && narrowMode(p, PRIVATE_FILE_MODE)) changed.push(p);
  }
  return changed;
};

/** The sentence the log gets when modes were narrowed. */
export const reportNarrowed = (changed: readonly string[]): void => {
  if (changed.length === 0) return;
  console.warn(
    `Voicescope made ${changed.length} of its files and folders private to your user account (others could read them before): ${changed.slice(0, 5).join(', ')}${changed.length > 5 ? ', …' : ''}`,
  );
};
