/**
 * The name of this workstation as the audit log and the curation acts record it: the name the open
 * workspace registers on the study database (main/workspace/workstation-name.ts: the host name and a
 * suffix kept in the workspace), so an act names the same workstation as its claims and its files. A
 * process opens one workspace; until it has, the computer's host name (lower case, at most 63
 * characters), or "unknown" when the system gives none.
 */
import { hostname } from 'node:os';

let registered: string | null = null;

/** The open workspace's registered name, for every entry written from now on. */
export const useWorkstationName = (name: string): void => {
  registered = name;
};

const hostName = (): string => {
  try {
    const name = hostname().trim().toLowerCase().slice(0, 63);
    return name === '' ? 'unknown' : name;
  } catch {
    return 'unknown';
  }
};

export const workstationName = (): string => registered ?? hostName();
