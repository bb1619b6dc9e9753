/**
 * A throwaway workspace for the `voicescope` command-line journeys (test/integration/cli): every command
 * runs as a process of its own over it (`node --import tsx main/cli/voicescope.ts --home <home> …`), and
 * a test reads the study database between commands. Used by the command journeys in test/integration/cli,
 * the loose-service batch (test/integration/sandbox/loose-batch-cli.slow.test.ts) and the 12-week study
 * (test/integration/study/twelve-week-study.slow.test.ts).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openStudyDb } from '../../main/db/open';
import { sqliteStore } from '../../main/db/store/sqlite-store';
import type { Store } from '../../main/db/store/types';

const CLI = join(import.meta.dirname, '../../main/cli/voicescope.ts');
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href;

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliWorkspaceOptions {
  /** Added to the environment of every command (e.g. the variable a profile's `--key-env` names). */
  readonly env?: Readonly<Record<string, string>>;
}

export interface CliWorkspace {
  readonly root: string;
  readonly home: string;
  readonly dbPath: string;
  /** One `voicescope` command, as a process, to its exit (`env`: added to its environment). */
  run(args: readonly string[], env?: Readonly<Record<string, string>>): Promise<CliRun>;
  /** Opens the study database, hands it to `f`, closes it. */
  read<T>(f: (db: ReturnType<typeof openStudyDb>['db']) => T): T;
  /** Opens the study database as a store, hands it to `f`, closes it when `f` has finished. */
  readStore<T>(f: (store: Store) => Promise<T>): Promise<T>;
  /** Removes the workspace (call it in `afterAll`). */
  remove(): void;
}

export const cliWorkspace = (prefix: string, options: CliWorkspaceOptions = {}): CliWorkspace => {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const home = join(root, 'home');
  const dbPath = join(home, 'voicescope.sqlite');
  return {
    root,
    home,
    dbPath,
    run: (args, env = {}) =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, ['--import', TSX, CLI, '--home', home, ...args], {
          env: { ...process.env, ...options.env, ...env },
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
      }),
    read: (f) => {
      const { db } = openStudyDb(dbPath);
      try {
        return f(db);
      } finally {
        db.close();
      }
    },
    readStore: async (f) => {
      const { db } = openStudyDb(dbPath);
      const store = sqliteStore(db);
      try {
        return await f(store);
      } finally {
        await store.close();
      }
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
};

/** The lines a command printed with `--json`, each parsed. */
export const jsonLines = <T = Record<string, unknown>>(stdout: string): T[] =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);
