/**
 * A throwaway workspace for the `voicescope` command-line journeys (test/integration/cli): every command
 * runs as a process of its own over it (`node <the run's bundle of the command> --home <home> …`,
 * test/support/cli-bundle.ts), and
 * a test reads the study database between commands. Used by the command journeys in test/integration/cli,
 * the loose-service batch (test/integration/sandbox/loose-batch-cli.slow.test.ts) and the 12-week study
 * (test/integration/study/twelve-week-study.slow.test.ts).
 *
 * With `VOICESCOPE_CLI_ENGINE=postgres` (the `cli-postgres` project of vitest.slow.config.ts) the same
 * journeys run on a study database on a throwaway PostgreSQL 15 server instead of the workspace's file,
 * as a researcher would set it up: before the first command the password is given once in the address
 * (the product moves it to the workspace's key store and brings the schema up), then every command is
 * given the address without it in `VOICESCOPE_DATABASE_URL`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStudyDb } from '../../main/db/open';
import { connectPostgres } from '../../main/db/store/connect';
import { sqliteStore } from '../../main/db/store/sqlite-store';
import type { Store } from '../../main/db/store/types';
import { DATABASE_URL_VARIABLE, openChosenStudyService } from '../../main/services/open-study-service';
import { startPostgresCluster, type PostgresCluster } from './postgres-cluster';
import { voicescopeNodeArgs } from './cli-bundle';

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliWorkspaceOptions {
  /** Added to the environment of every command (e.g. the variable a profile's `--key-env` names). */
  readonly env?: Readonly<Record<string, string>>;
}

/** The engine the journeys' study databases are kept on (`VOICESCOPE_CLI_ENGINE`). */
export const CLI_ENGINE: 'sqlite' | 'postgres' =
  process.env['VOICESCOPE_CLI_ENGINE'] === 'postgres' ? 'postgres' : 'sqlite';

/** Where a workspace's study is kept: the environment its commands get, and a store of the test's own over it. */
interface StudyPlace {
  readonly env: Readonly<Record<string, string>>;
  openStore(): Promise<Store>;
  stop(): void;
}

const inFile = (dbPath: string): StudyPlace => ({
  env: {},
  openStore: async () => sqliteStore(openStudyDb(dbPath).db),
  stop: () => undefined,
});

/** A server of the workspace's own, its password moved to the workspace's key store by the product. */
const onServer = async (home: string): Promise<StudyPlace> => {
  const cluster: PostgresCluster = await startPostgresCluster();
  const opened = await openChosenStudyService({ workspaceDir: home }, cluster.url(true));
  if (!opened.ok) throw new Error(opened.error);
  await opened.value.service.close();
  return {
    env: { [DATABASE_URL_VARIABLE]: cluster.url(false) },
    openStore: async () => {
      const connected = await connectPostgres(cluster.address, cluster.password);
      if (!connected.ok) throw new Error(connected.error.message);
      return connected.value;
    },
    stop: () => cluster.stop(),
  };
};

export interface CliWorkspace {
  readonly root: string;
  readonly home: string;
  readonly dbPath: string;
  /** One `voicescope` command, as a process, to its exit (`env`: added to its environment). */
  run(args: readonly string[], env?: Readonly<Record<string, string>>): Promise<CliRun>;
  /** Opens the study database (SQLite only: a journey on PostgreSQL reads through `readStore`), hands it to `f`, closes it. */
  read<T>(f: (db: ReturnType<typeof openStudyDb>['db']) => T): T;
  /** Opens the study database as a store, hands it to `f`, closes it when `f` has finished. */
  readStore<T>(f: (store: Store) => Promise<T>): Promise<T>;
  /** Removes the workspace and stops its server, if any (call it in `afterAll`). */
  remove(): void;
}

export const cliWorkspace = (prefix: string, options: CliWorkspaceOptions = {}): CliWorkspace => {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const home = join(root, 'home');
  const dbPath = join(home, 'voicescope.sqlite');
  let place: Promise<StudyPlace> | null = null;
  const study = (): Promise<StudyPlace> =>
    (place ??= CLI_ENGINE === 'postgres' ? onServer(home) : Promise.resolve(inFile(dbPath)));
  return {
    root,
    home,
    dbPath,
    run: async (args, env = {}) => {
      const where = (await study()).env;
      return new Promise((resolve) => {
        const child = spawn(process.execPath, [...voicescopeNodeArgs(), '--home', home, ...args], {
          env: { ...process.env, ...where, ...options.env, ...env },
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
      });
    },
    read: (f) => {
      if (CLI_ENGINE !== 'sqlite')
        throw new Error('this journey reads the SQLite file: read through readStore');
      const { db } = openStudyDb(dbPath);
      try {
        return f(db);
      } finally {
        db.close();
      }
    },
    readStore: async (f) => {
      const store = await (await study()).openStore();
      try {
        return await f(store);
      } finally {
        await store.close();
      }
    },
    remove: () => {
      void place?.then((p) => p.stop());
      rmSync(root, { recursive: true, force: true });
    },
  };
};

/** The lines a command printed with `--json`, each parsed. */
export const jsonLines = <T = Record<string, unknown>>(stdout: string): T[] =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);
