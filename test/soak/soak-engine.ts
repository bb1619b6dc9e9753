/**
 * Where the soak keeps its study: the workspace's SQLite file, or a study database on a throwaway
 * PostgreSQL 15 server (test/support/postgres-cluster.ts) that the researcher's part opens with the
 * password in the address (moved to the workspace's key store) and the engine process reaches by
 * `VOICESCOPE_DATABASE_URL`, the address without it, exactly as a researcher's machine would.
 */
import { join } from 'node:path';
import { openStudyDb } from '../../main/db/open';
import { connectPostgres } from '../../main/db/store/connect';
import { sqliteStore } from '../../main/db/store/sqlite-store';
import type { Store } from '../../main/db/store/types';
import { DATABASE_URL_VARIABLE } from '../../main/services/open-study-service';
import { startPostgresCluster } from '../support/postgres-cluster';
import { AMCHECK_SCHEMA } from './database-checks';

export const SOAK_ENGINES = ['sqlite', 'postgres'] as const;
export type SoakEngine = (typeof SOAK_ENGINES)[number];

export interface SoakDatabase {
  /** The engine, as the summary names it. */
  readonly label: string;
  /** What the researcher's part opens: null for the workspace's file, else the address with its password. */
  readonly firstAddress: string | null;
  /** The engine process's environment. */
  readonly engineEnv: NodeJS.ProcessEnv;
  /** A store of the soak's own over the study, for its checks (after the researcher's part made it). */
  reader(): Promise<Store>;
  stop(): void;
}

const onFile = (home: string, env: NodeJS.ProcessEnv): SoakDatabase => {
  const engineEnv = { ...env };
  delete engineEnv[DATABASE_URL_VARIABLE]; // the engine process opens the same file as the researcher's part
  return {
    label: 'SQLite (the workspace’s file)',
    firstAddress: null,
    engineEnv,
    reader: async () => sqliteStore(openStudyDb(join(home, 'voicescope.sqlite')).db),
    stop: () => undefined,
  };
};

const onServer = async (env: NodeJS.ProcessEnv): Promise<SoakDatabase> => {
  const cluster = await startPostgresCluster();
  // amcheck, for the integrity checks: installed by the superuser in a schema of its own, its functions
  // granted to the study's login (which is no superuser).
  cluster.superuser(
    `CREATE SCHEMA ${AMCHECK_SCHEMA}; CREATE EXTENSION amcheck SCHEMA ${AMCHECK_SCHEMA};
     GRANT USAGE ON SCHEMA ${AMCHECK_SCHEMA} TO ${cluster.user};
     GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA ${AMCHECK_SCHEMA} TO ${cluster.user};`,
    cluster.database,
  );
  return {
    label: `PostgreSQL ${cluster.superuser('SHOW server_version').trim()} (a throwaway cluster, over TLS)`,
    firstAddress: cluster.url(true),
    engineEnv: { ...env, [DATABASE_URL_VARIABLE]: cluster.url(false) },
    reader: async () => {
      const connected = await connectPostgres(cluster.address, cluster.password);
      if (!connected.ok) throw new Error(connected.error.message);
      return connected.value;
    },
    stop: () => cluster.stop(),
  };
};

export const soakDatabase = (engine: SoakEngine, home: string, env: NodeJS.ProcessEnv) =>
  engine === 'sqlite' ? Promise.resolve(onFile(home, env)) : onServer(env);
