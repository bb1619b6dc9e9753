/**
 * Where Voicescope keeps its files: the study database, converted copies of recordings (the originals
 * are never touched) and API key files. One folder, chosen by VOICESCOPE_HOME or by the caller; the
 * Electron shell passes its userData folder.
 */
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

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
  return {
    dir: root,
    dbPath: join(root, 'voicescope.sqlite'),
    keysDir,
    convertedDir: (studyId) => {
      const d = join(root, 'converted', `study-${studyId}`);
      mkdirSync(d, { recursive: true });
      return d;
    },
  };
};
