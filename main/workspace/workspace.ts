/**
 * Where Voicescope keeps its files: the study database, converted copies of recordings (the originals
 * are never touched) and API key files. One folder, chosen by VOICESCOPE_HOME or by the caller; the
 * Electron shell passes its userData folder.
 */
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { narrowMode, narrowTree, PRIVATE_DIR_MODE, reportNarrowed } from '../file-modes';

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
  const keysDir = join(root, 'keys');
  mkdirSync(keysDir, { recursive: true, mode: 0o700 });
  // A folder that existed before (a --home the researcher made, an earlier version) is made private too:
  // the workspace and its keys folder 0700, key files and archives 0600 (main/file-modes.ts).
  const changed = [
    ...(narrowMode(root, PRIVATE_DIR_MODE) ? [root] : []),
    ...narrowTree(keysDir, 1),
    ...narrowTree(join(root, 'archives'), 3),
  ];
  reportNarrowed(changed);
  return {
    dir: root,
    dbPath: join(root, 'voicescope.sqlite'),
    keysDir,
    convertedDir: (studyId) => {
      const d = join(root, 'converted', `study-${studyId}`);
      mkdirSync(d, { recursive: true, mode: 0o700 });
      return d;
    },
  };
};
