/**
 * A throwaway PostgreSQL 15 cluster for the slow tests (Debian's postgresql-15): created in a temporary
 * folder, on a free port, run as the `postgres` user when the tests run as root (`initdb` refuses
 * root), with TLS from a certificate authority made for it. The tests connect as `voicescope`, a login
 * that owns its database and is no superuser; `superuser` is there for what a test must break on
 * purpose (a missing database, a refused login).
 */
import type { DatabaseAddress } from '../../main/db/store/address';
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BIN = '/usr/lib/postgresql/15/bin';
export const TEST_PASSWORD = 'not-a-real-secret-9f3k';

export interface PostgresCluster {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly password: string;
  readonly database: string;
  /** The certificate authority that signed the server's certificate (for `sslmode=verify-full`). */
  readonly caFile: string;
  /** A certificate authority the server's certificate does not come from. */
  readonly strangerCaFile: string;
  /** The study database's address as Voicescope connects to it: localhost, TLS with verify-full. */
  readonly address: DatabaseAddress;
  /** That address written as `--database` takes it, with the password or without (the key store has it). */
  url(withPassword: boolean): string;
  /** Runs SQL as the cluster's superuser over its private socket. */
  superuser(sql: string, database?: string): string;
  /** Every row of the study database, as `pg_dump --data-only` writes it. */
  dumpRows(): string;
  /**
   * Processor seconds (user and system) the server has used since it started: the postmaster, its
   * running processes and those that ended (the kernel adds a reaped child's time to its parent's).
   */
  cpuSeconds(): number;
  stop(): void;
}

const TICKS_PER_SECOND = 100;
/** utime, stime, cutime and cstime of /proc/<pid>/stat (fields 14-17), in clock ticks. */
const processTicks = (pid: number, withChildren: boolean): number => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const [u, s, cu, cs] = fields.slice(11, 15).map(Number) as [number, number, number, number];
    return u + s + (withChildren ? cu + cs : 0);
  } catch {
    return 0; // ended meanwhile: its time is in its parent's by now
  }
};
const serverCpuSeconds = (data: string): number => {
  const postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)])
    .toString()
    .split('\n')
    .filter(Boolean)
    .map(Number);
  const ticks = processTicks(postmaster, true) + children.reduce((n, c) => n + processTicks(c, false), 0);
  return ticks / TICKS_PER_SECOND;
};

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const postgresIds = (): { uid: number; gid: number } => {
  const [uid, gid] = execFileSync('id', ['-u', 'postgres']).toString().trim().split('\n');
  return { uid: Number(uid), gid: Number(execFileSync('id', ['-g', 'postgres']).toString().trim() || gid) };
};
/** Runs a PostgreSQL program as the cluster's owner. */
const asOwner = (program: string, args: string[], input?: string): string => {
  const [cmd, all] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', join(BIN, program), ...args]]
    : [join(BIN, program), args];
  return execFileSync(cmd, all, { input, stdio: ['pipe', 'pipe', 'pipe'] }).toString();
};

/** A certificate authority and a server certificate for localhost and 127.0.0.1, made with openssl. */
const makeCertificates = (dir: string): { caFile: string; strangerCaFile: string } => {
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ca = (name: string) =>
    ssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      `/CN=${name}`,
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.crt`,
    );
  ca('test-ca');
  ca('stranger-ca');
  ssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=localhost',
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
  );
  writeFileSync(join(dir, 'san.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  ssl(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'test-ca.crt',
    '-CAkey',
    'test-ca.key',
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    'san.ext',
    '-out',
    'server.crt',
  );
  chmodSync(join(dir, 'server.key'), 0o600);
  return { caFile: join(dir, 'test-ca.crt'), strangerCaFile: join(dir, 'stranger-ca.crt') };
};

export const startPostgresCluster = async (): Promise<PostgresCluster> => {
  const root = mkdtempSync(join(tmpdir(), 'vs-pg-'));
  const data = join(root, 'data');
  const socket = join(root, 'socket');
  const certs = join(root, 'certs');
  mkdirSync(socket);
  mkdirSync(certs);
  const { caFile, strangerCaFile } = makeCertificates(certs);
  if (asRoot) {
    const { uid, gid } = postgresIds();
    for (const p of [root, socket, certs, join(certs, 'server.key'), join(certs, 'server.crt')])
      chownSync(p, uid, gid);
  }
  asOwner('initdb', [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth-local=trust',
    '--auth-host=scram-sha-256',
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  const port = await freePort();
  const options = [
    `-p ${port}`,
    `-k ${socket}`,
    `-c listen_addresses=127.0.0.1`,
    '-c ssl=on',
    `-c ssl_cert_file=${join(certs, 'server.crt')}`,
    `-c ssl_key_file=${join(certs, 'server.key')}`,
    '-c fsync=off',
    '-c max_connections=40',
  ].join(' ');
  asOwner('pg_ctl', ['-D', data, '-o', options, '-l', join(root, 'server.log'), '-w', 'start']);
  const superuser = (sql: string, database = 'postgres') =>
    asOwner(
      'psql',
      [
        '-h',
        socket,
        '-p',
        String(port),
        '-U',
        'postgres',
        '-d',
        database,
        '-v',
        'ON_ERROR_STOP=1',
        '-qAt',
        '-f',
        '-',
      ],
      sql,
    );
  superuser(
    `CREATE ROLE voicescope LOGIN PASSWORD '${TEST_PASSWORD}'; CREATE DATABASE study OWNER voicescope;`,
  );
  const address: DatabaseAddress = {
    host: 'localhost',
    port,
    database: 'study',
    user: 'voicescope',
    sslMode: 'verify-full',
    caFile,
  };
  return {
    address,
    url: (withPassword) =>
      `postgres://voicescope${withPassword ? `:${encodeURIComponent(TEST_PASSWORD)}` : ''}@localhost:${port}/study?sslmode=verify-full&sslrootcert=${encodeURIComponent(caFile)}`,
    host: '127.0.0.1',
    port,
    user: 'voicescope',
    password: TEST_PASSWORD,
    database: 'study',
    caFile,
    strangerCaFile,
    superuser,
    cpuSeconds: () => serverCpuSeconds(data),
    dumpRows: () =>
      asOwner('pg_dump', ['-h', socket, '-p', String(port), '-U', 'postgres', '--data-only', 'study']),
    stop: () => {
      try {
        asOwner('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
};
