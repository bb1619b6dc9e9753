/**
 * Who did a curation act: the operating-system user running Voicescope (the command line or the
 * window's host), or the name the service was opened with (tests). The audit log holds it as a plain
 * word (lower case; anything else becomes "_"), the curation act as given.
 */
import { userInfo } from 'node:os';

export const operatingSystemUser = (): string => {
  try {
    return userInfo().username || 'unknown';
  } catch {
    return 'unknown';
  }
};

export const asPlainWord = (who: string): string =>
  who
    .toLowerCase()
    .replace(/[^a-z0-9_.-]/g, '_')
    .slice(0, 40);
