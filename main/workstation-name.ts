/**
 * The name of this workstation, as the audit log and the curation acts record it: the computer's host
 * name (lower case, at most 63 characters), or "unknown" when the system gives none. The one place the
 * name is decided, so that it can later be the workstation's registered name instead.
 */
import { hostname } from 'node:os';

export const workstationName = (): string => {
  try {
    const name = hostname().trim().toLowerCase().slice(0, 63);
    return name === '' ? 'unknown' : name;
  } catch {
    return 'unknown';
  }
};
