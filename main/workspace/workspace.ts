/**
 * Where Voicescope keeps its files: the study database, converted copies of recordings (the originals
 * are never touched), API key files, exports, archives and the built-in sandbox's state. One folder,
 * chosen by VOICESCOPE_HOME or by the caller; the Electron shell passes its userData folder. Every
 * name inside it is written here once; other modules find the folders through these functions.
 */
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { narrowMode, narrowTree, PRIVATE_DIR_MODE, reportNarrowed } from '../file-modes';

export const studyDbPathOf = (workspaceDir: string): string => join(workspaceDir, 'voicescope.sqlite');
export const keysDirOf = (workspaceDir: string): string => join(workspaceDir, 'keys');
/** Where exports go unless the researcher picks another folder. */
export const exportsDirOf = (workspaceDir: string): string => join(workspaceDir, 'exports');
export const archivesDirOf = (workspaceDir: string): string => join(workspaceDir, 'archives');
/** Converted copies of one study's recordings. */
export const convertedDirOf = (workspaceDir: string, studyId: number): string =>
  join(workspaceDir, 'converted', `study-${studyId}`);
/** The built-in sandbox's state. */
/** Decoded WAV copies of recordings the window cannot play as they are (main/audio/playback-copy.ts); a few at most. */
export const playbackDirOf = (workspaceDir: string): string => join(workspaceDir, 'playback');
export const sandboxDirOf = (workspaceDir: string): string => join(workspaceDir, 'sandbox');

export interface Workspace {
  readonly dir: string;
  readonly dbPath: string;
  readonly keysDir: string;
  convertedDir(studyId: number): string;
}

export const defaultWorkspaceDir = (env: NodeJS.ProcessEnv = process.env): string =>
  resolve(env['VOICESCOPE_HOME'] ?? join(homedir(), '.voicescope'));

export const openWorkspace = (dir: string): Workspace => {
  const root = resolve(dir);
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const keysDir = keysDirOf(root);
  mkdirSync(keysDir, { recursive: true, mode: 0o700 });
  // A folder that existed before (a --home the researcher made, an earlier version) is made private too:
  // the workspace and its keys folder 0700, key files and archives 0600 (main/file-modes.ts).
  const changed = [
    ...(narrowMode(root, PRIVATE_DIR_MODE) ? [root] : []),
    ...narrowTree(keysDir, 1),
    ...narrowTree(archivesDirOf(root), 3),
  ];
  reportNarrowed(changed);
  return {
    dir: root,
    dbPath: studyDbPathOf(root),
    keysDir,
    convertedDir: (studyId) => {
      const d = convertedDirOf(root, studyId);
      mkdirSync(d, { recursive: true, mode: 0o700 });
      return d;
    },
  };
};
