/**
 * This workstation's name on a shared study database: the computer's host name and a random suffix,
 * chosen the first time a workspace is used and kept in it (a file `workstation`), so the same machine
 * keeps its name across restarts and two machines with the same host name still differ.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

export const workstationFileOf = (workspaceDir: string): string => join(workspaceDir, 'workstation');

/** Letters, digits, dots and dashes only, at most 63 characters: it is shown and logged as it is. */
const cleanName = (host: string): string =>
  host
    .replace(/[^A-Za-z0-9.-]/g, '-')
    .replace(/^[.-]+/, '')
    .slice(0, 48) || 'workstation';

/** The name kept in the workspace, written there on first use. */
export const workstationName = (workspaceDir: string): string => {
  const file = workstationFileOf(workspaceDir);
  try {
    const kept = readFileSync(file, 'utf8').trim();
    if (kept) return kept;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const name = `${cleanName(hostname())}-${randomBytes(3).toString('hex')}`;
  // 'wx': a second process starting at the same moment keeps the name the first wrote.
  try {
    writeFileSync(file, `${name}\n`, { mode: 0o600, flag: 'wx' });
    return name;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    return readFileSync(file, 'utf8').trim();
  }
};
