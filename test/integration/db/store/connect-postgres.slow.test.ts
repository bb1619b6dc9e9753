/**
 * Connecting to a real PostgreSQL 15 server: TLS with verify-full, and each failure a researcher can
 * meet told in their words (server not reachable, login refused, database missing, certificate not
 * trusted, no TLS offered), never with the password.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DatabaseAddress } from '../../../../main/db/store/address';
import { connectPostgres } from '../../../../main/db/store/connect';
import { startPostgresCluster, type PostgresCluster } from '../../../support/postgres-cluster';
import { describeWithTool } from '../../../support/reference-tools';

describeWithTool('postgresql-15', 'connecting to a PostgreSQL study database', () => {
  let cluster: PostgresCluster;
  let address: DatabaseAddress;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
    address = cluster.address;
  });
  afterAll(() => cluster?.stop());

  const problemOf = async (a: DatabaseAddress, password = cluster.password) => {
    const r = await connectPostgres(a, password);
    if (r.ok) {
      await r.value.close();
      return null;
    }
    expect(r.error.message).not.toContain(password);
    return r.error;
  };

  it('connects over TLS, checking the server certificate against the certificate authority', async () => {
    const r = await connectPostgres(address, cluster.password);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const tls = await r.value.get<{ ssl: boolean }>(
      'SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()',
    );
    expect(tls).toEqual({ ssl: true });
    await r.value.close();
  });

  it('says the certificate is not trusted when another authority signed it, and sends no password', async () => {
    expect(await problemOf({ ...address, caFile: cluster.strangerCaFile })).toMatchObject({
      code: 'DB_TLS_UNTRUSTED',
    });
  });

  it('says the login was refused for a wrong password', async () => {
    expect(await problemOf(address, 'wrong-password')).toMatchObject({
      code: 'DB_LOGIN_REFUSED',
      message: expect.stringContaining('voicescope'),
    });
  });

  it('says the database is missing, naming it', async () => {
    expect(await problemOf({ ...address, database: 'no_such_study' })).toMatchObject({
      code: 'DB_MISSING',
      message: expect.stringContaining('no_such_study'),
    });
  });

  it('says the server cannot be reached when nothing listens at the address', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    expect(await problemOf({ ...address, port })).toMatchObject({
      code: 'DB_UNREACHABLE',
      message: expect.stringContaining(`:${port}`),
    });
  });

  it('says the certificate authority file cannot be read', async () => {
    expect(await problemOf({ ...address, caFile: '/nonexistent/ca.crt' })).toMatchObject({
      code: 'DB_CA_FILE',
    });
  });
});
