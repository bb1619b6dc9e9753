/**
 * Connecting to a PostgreSQL study database: the pool's settings from an address and a password (TLS
 * with the certificate authority's file for `verify-full`), a first query that checks the server's
 * version, and every failure told in the researcher's words.
 */
import { readFileSync } from 'node:fs';
import type pg from 'pg';
import { err, ok, type Result } from '../../../shared/result';
import { printableAddress, type DatabaseAddress } from './address';
import { openPgStore } from './pg-store';
import type { Store } from './types';

/** The oldest PostgreSQL a study database may run on (`server_version_num`). */
export const OLDEST_SERVER = 150000;

export const CONNECT_PROBLEMS = [
  'DB_UNREACHABLE',
  'DB_LOGIN_REFUSED',
  'DB_MISSING',
  'DB_SERVER_TOO_OLD',
  'DB_TLS_UNTRUSTED',
  'DB_TLS_UNAVAILABLE',
  'DB_CA_FILE',
] as const;
export type ConnectProblemCode = (typeof CONNECT_PROBLEMS)[number];

export interface ConnectProblem {
  readonly code: ConnectProblemCode;
  readonly message: string;
}

const tlsOptions = (a: DatabaseAddress): pg.PoolConfig['ssl'] => {
  if (a.sslMode === 'disable') return false;
  if (a.sslMode === 'require') return { rejectUnauthorized: false };
  return { rejectUnauthorized: true, ca: readFileSync(a.caFile!, 'utf8'), servername: a.host };
};

export const poolConfig = (a: DatabaseAddress, password: string): pg.PoolConfig => ({
  host: a.host,
  port: a.port,
  database: a.database,
  user: a.user,
  password,
  ssl: tlsOptions(a),
  connectionTimeoutMillis: 10_000,
  // A connection whose server went silent (a cut network) is found broken by TCP, not waited on for ever.
  keepAlive: true,
  application_name: 'voicescope',
});

const TLS_UNTRUSTED = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
]);
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNRESET',
]);

/** A connection failure in the researcher's words, naming the address without its password. */
export const connectProblem = (e: unknown, a: DatabaseAddress): ConnectProblem => {
  const code = String((e as { code?: unknown }).code ?? '');
  const text = e instanceof Error ? e.message : String(e);
  const where = printableAddress(a);
  if (TLS_UNTRUSTED.has(code))
    return {
      code: 'DB_TLS_UNTRUSTED',
      message: `The database server's certificate is not signed by the certificate authority in ${a.caFile ?? 'the address'}, or does not name ${a.host}, so Voicescope did not send the password. Ask the server's administrator for the right certificate authority file.`,
    };
  if (/does not support SSL/i.test(text))
    return {
      code: 'DB_TLS_UNAVAILABLE',
      message: `The database server at ${a.host}:${a.port} does not offer a protected connection, and the address asks for one. Ask its administrator to turn TLS on.`,
    };
  if (code === '28P01' || code === '28000')
    return {
      code: 'DB_LOGIN_REFUSED',
      message: `The database server refused the login ${a.user} (wrong password, or this login may not connect from here). Check the login with the server's administrator, then give the address once with the new password.`,
    };
  if (code === '3D000')
    return {
      code: 'DB_MISSING',
      message: `The database server has no database named ${a.database}. Check the name in the address (${where}), or ask its administrator to create it.`,
    };
  if (UNREACHABLE.has(code) || /timeout/i.test(text))
    return {
      code: 'DB_UNREACHABLE',
      message: `Voicescope cannot reach the database server at ${a.host}:${a.port} (${code || 'no answer'}). Check the network and that the server is running; nothing was changed.`,
    };
  throw e;
};

export const serverTooOld = (versionNum: number): ConnectProblem | null =>
  versionNum >= OLDEST_SERVER
    ? null
    : {
        code: 'DB_SERVER_TOO_OLD',
        message: `The database server runs PostgreSQL ${Math.floor(versionNum / 10000)}; Voicescope needs PostgreSQL 15 or newer. Ask its administrator to upgrade the server.`,
      };

/** Opens a pool on the study database and checks the server; a failure the researcher can act on is a value. */
export const connectPostgres = async (
  a: DatabaseAddress,
  password: string,
): Promise<Result<Store, ConnectProblem>> => {
  let config: pg.PoolConfig;
  try {
    config = poolConfig(a, password);
  } catch {
    return err({
      code: 'DB_CA_FILE',
      message: `Voicescope cannot read the certificate authority's file ${a.caFile}. Check the path in the address (sslrootcert=…).`,
    });
  }
  const store = openPgStore(config);
  try {
    const row = await store.get<{ v: string }>("SELECT current_setting('server_version_num') AS v");
    const old = serverTooOld(Number(row?.v));
    if (old === null) return ok(store);
    await store.close();
    return err(old);
  } catch (e) {
    await store.close().catch(() => undefined);
    return err(connectProblem(e, a));
  }
};
