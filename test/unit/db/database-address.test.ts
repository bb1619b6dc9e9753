/** The address of a PostgreSQL study database: parsed, printed without its password, the password kept in the key store. */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  parseDatabaseAddress,
  passwordKeyName,
  printableAddress,
  settlePassword,
} from '../../../main/db/store/address';
import { serverTooOld } from '../../../main/db/store/connect';
import { createKeyStore } from '../../../main/workspace/key-store';

const keysDir = mkdtempSync(join(tmpdir(), 'vs-keys-'));
afterAll(() => rmSync(keysDir, { recursive: true, force: true }));

const parsed = (text: string) => {
  const r = parseDatabaseAddress(text);
  if (!r.ok) throw new Error(r.error);
  return r.value;
};

describe('a study database address', () => {
  it('names the server, port, database, login and protection', () => {
    const { address, password } = parsed(
      'postgres://ana:s%3Acret@db.lab.example:6543/aphasia?sslmode=verify-full&sslrootcert=/etc/lab/ca.crt',
    );
    expect(address).toEqual({
      host: 'db.lab.example',
      port: 6543,
      database: 'aphasia',
      user: 'ana',
      sslMode: 'verify-full',
      caFile: '/etc/lab/ca.crt',
    });
    expect(password).toBe('s:cret');
  });

  it('is printed without its password, whatever the address carried', () => {
    const { address } = parsed('postgresql://ana:hunter2@localhost/study');
    const shown = printableAddress(address);
    expect(shown).toBe('postgres://ana@localhost:5432/study?sslmode=disable');
    expect(shown).not.toContain('hunter2');
    expect(parsed(shown).password).toBeNull();
  });

  it('protects a connection to another computer by default, which needs the certificate authority', () => {
    const r = parseDatabaseAddress('postgres://ana@db.lab.example/study');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toContain('sslrootcert=');
    expect(parsed('postgres://ana@db.lab.example/study?sslrootcert=/ca.crt').address.sslMode).toBe(
      'verify-full',
    );
  });

  it('refuses what is not a PostgreSQL address, or lacks the login or the database, saying what one looks like', () => {
    for (const bad of [
      'not an address',
      'mysql://ana@h/db',
      'postgres://h/db',
      'postgres://ana@h/',
      'postgres://ana@h/db?sslmode=prefer',
    ]) {
      const r = parseDatabaseAddress(bad);
      expect(r.ok, bad).toBe(false);
      expect(!r.ok && r.error, bad).toContain('postgres://user@server:5432/study');
    }
  });
});

describe('the password of a study database', () => {
  const keys = createKeyStore({ keysDir, env: {} });

  it('is moved from an address that carries it to a private key file, and read back from there', () => {
    const withPassword = parsed('postgres://ana:hunter2@localhost:5433/study');
    expect(settlePassword(withPassword, keys)).toEqual({
      ok: true,
      value: { password: 'hunter2', moved: true },
    });
    const file = join(keysDir, `profile-${passwordKeyName(withPassword.address)}.key`);
    expect(readFileSync(file, 'utf8')).toBe('hunter2');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const without = parsed('postgres://ana@localhost:5433/study');
    expect(settlePassword(without, keys)).toEqual({ ok: true, value: { password: 'hunter2', moved: false } });
  });

  it('is asked for once when none is stored', () => {
    const r = settlePassword(parsed('postgres://bo@localhost/other'), keys);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toContain('Give the address once with the password');
  });
});

describe('the database server', () => {
  it('must run PostgreSQL 15 or newer', () => {
    expect(serverTooOld(150018)).toBeNull();
    expect(serverTooOld(170002)).toBeNull();
    expect(serverTooOld(140011)).toMatchObject({
      code: 'DB_SERVER_TOO_OLD',
      message: expect.stringContaining('PostgreSQL 14;'),
    });
  });
});
