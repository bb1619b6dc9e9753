/**
 * The study database the window works on, remembered in the workspace: a team study's address
 * (without its password, which is in the key store), or nothing for the workspace's own study file.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE } from '../file-modes';

const choiceFile = (workspaceDir: string): string => join(workspaceDir, 'database');

/** The address chosen in the window, or null for the study file. */
export const chosenDatabase = (workspaceDir: string): string | null => {
  const file = choiceFile(workspaceDir);
  if (!existsSync(file)) return null;
  return readFileSync(file, 'utf8').trim() || null;
};

/** Remembers the address (never one carrying a password), or the study file for null. */
export const chooseDatabase = (workspaceDir: string, address: string | null): void => {
  const file = choiceFile(workspaceDir);
  if (address === null) rmSync(file, { force: true });
  else writeFileSync(file, `${address}\n`, { mode: PRIVATE_FILE_MODE });
};
