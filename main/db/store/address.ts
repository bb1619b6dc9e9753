/**
 * The address of a PostgreSQL study database (`VOICESCOPE_DATABASE_URL` or `--database postgres://…`),
 * parsed once. The password is never part of what is kept or printed: an address written with a
 * password is accepted once, its password moved to the key store (like a service's API key: a 0600
 * key file, read back by its reference), and from then on the address without it is what is stored
 * and shown (`printableAddress`).
 */
import { err, ok, type Result } from '../../../shared/result';
import type { KeyStore } from '../../workspace/key-store';

/** How the connection is protected: `verify-full` checks the server's certificate and name. */
export const SSL_MODES = ['disable', 'require', 'verify-full'] as const;
export type SslMode = (typeof SSL_MODES)[number];

export interface DatabaseAddress {
  readonly host: string;
  readonly port: number;
  readonly database: string;
  readonly user: string;
  readonly sslMode: SslMode;
  /** The certificate authority that signed the server's certificate (`sslrootcert`). */
  readonly caFile: string | null;
}

export interface ParsedAddress {
  readonly address: DatabaseAddress;
  /** The password, when the address carried one (to be moved to the key store, never kept here). */
  readonly password: string | null;
}

const LOCAL_HOSTS = ['localhost', '127.0.0.1', '::1', '[::1]'];

const problem = (what: string): Result<never, string> =>
  err(
    `${what} A study database address looks like postgres://user@server:5432/study?sslmode=verify-full&sslrootcert=/path/to/ca.crt (the password is kept in the key store, not in the address).`,
  );

const sslModeOf = (url: URL): Result<SslMode, string> => {
  const asked = url.searchParams.get('sslmode');
  if (asked === null) return ok(LOCAL_HOSTS.includes(url.hostname) ? 'disable' : 'verify-full');
  if ((SSL_MODES as readonly string[]).includes(asked)) return ok(asked as SslMode);
  return problem(
    `The address asks for sslmode=${asked}, which Voicescope does not offer (${SSL_MODES.join(', ')}).`,
  );
};

export const parseDatabaseAddress = (text: string): Result<ParsedAddress, string> => {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return problem('This is not a database address.');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
    return problem(`The address starts with ${url.protocol}//; Voicescope connects to PostgreSQL only.`);
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!url.hostname || !database || !url.username)
    return problem('The address must name the server, the database and the login.');
  const sslMode = sslModeOf(url);
  if (!sslMode.ok) return sslMode;
  const caFile = url.searchParams.get('sslrootcert');
  if (sslMode.value === 'verify-full' && caFile === null)
    return problem(
      'A protected connection (sslmode=verify-full) needs the certificate authority’s file: add sslrootcert=/path/to/ca.crt.',
    );
  const port = url.port ? Number(url.port) : 5432;
  return ok({
    address: {
      host: url.hostname,
      port,
      database,
      user: decodeURIComponent(url.username),
      sslMode: sslMode.value,
      caFile,
    },
    password: url.password ? decodeURIComponent(url.password) : null,
  });
};

/** The address to store and show: everything but the password. */
export const printableAddress = (a: DatabaseAddress): string => {
  const query = new URLSearchParams({ sslmode: a.sslMode });
  if (a.caFile !== null) query.set('sslrootcert', a.caFile);
  const host = a.host.includes(':') && !a.host.startsWith('[') ? `[${a.host}]` : a.host;
  return `postgres://${encodeURIComponent(a.user)}@${host}:${a.port}/${encodeURIComponent(a.database)}?${query.toString()}`;
};

/** The key store's name for a login's password (one per login, server and database). */
export const passwordKeyName = (a: DatabaseAddress): string =>
  `database-${a.user}-${a.host}-${a.port}-${a.database}`.replace(/[^0-9A-Za-z_-]/g, '_');

/** The database itself, whoever logs in: its server, port and name. */
export const databaseIdentity = (a: DatabaseAddress): string => `${a.host}-${a.port}-${a.database}`;

export interface SettledPassword {
  readonly password: string;
  /** The address carried the password, now moved to the key store: say so, once. */
  readonly moved: boolean;
}

/**
 * The login's password: the one the address carried (stored in the key store, so the next start
 * needs the address without it) or the one stored earlier.
 */
export const settlePassword = (parsed: ParsedAddress, keys: KeyStore): Result<SettledPassword, string> => {
  const name = passwordKeyName(parsed.address);
  if (parsed.password !== null) {
    keys.saveNamed(name, parsed.password);
    return ok({ password: parsed.password, moved: true });
  }
  const stored = keys.load(`key-file:${name}`);
  if (stored.ok) return ok({ password: stored.value, moved: false });
  return err(
    `No password is stored for ${parsed.address.user} on ${parsed.address.host}. Give the address once with the password (postgres://${parsed.address.user}:PASSWORD@…); Voicescope keeps it in the key store and never in the address it shows.`,
  );
};
