/**
 * `voicescope --database <address>` and `$VOICESCOPE_DATABASE_URL`: a study database that cannot be
 * opened ends the command with exit code 10 and says why in the researcher's words, never printing the
 * password; a password given in the address is moved to the workspace's key store (docs/cli.md). The
 * journey on a real PostgreSQL server is voicescope-postgres.slow.test.ts.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../main/cli/voicescope';
import { cliWorkspace, type CliRun } from '../../support/cli-workspace';

const ws = cliWorkspace('vs-cli-database-');
afterAll(() => ws.remove());

const SECRET = 'db-secret-73hq';
let closedPort: number;
beforeAll(async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closedPort = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const said = (r: CliRun) => `${r.stdout}\n${r.stderr}`;

describe('voicescope --database', () => {
  it('refuses an address that is not PostgreSQL, showing what one looks like (exit 10)', async () => {
    const r = await ws.run(['study', 'list', '--database', 'mysql://ada@db.example.org/study']);
    expect(r.code).toBe(EXIT.database);
    expect(r.stderr).toMatch(/connects to PostgreSQL only/);
    expect(r.stderr).toMatch(/postgres:\/\/user@server:5432\/study/);
  });

  it('asks for the password once when none is stored for the login (exit 10)', async () => {
    const r = await ws.run(['study', 'list', '--database', `postgres://ada@127.0.0.1:${closedPort}/study`]);
    expect(r.code).toBe(EXIT.database);
    expect(r.stderr).toMatch(/No password is stored for ada on 127\.0\.0\.1/);
  });

  it('keeps a password given in the address in the key store, never prints it, and says the server cannot be reached', async () => {
    const r = await ws.run([
      'study',
      'list',
      '--json',
      '--database',
      `postgres://ada:${SECRET}@127.0.0.1:${closedPort}/study`,
    ]);
    expect(r.code).toBe(EXIT.database);
    expect(r.stdout).toMatch(/cannot reach the database server at 127\.0\.0\.1/);
    expect(said(r)).not.toContain(SECRET);
    const keys = join(ws.home, 'keys');
    const stored = readdirSync(keys).map((f) => readFileSync(join(keys, f), 'utf8'));
    expect(stored).toContain(SECRET);
    // The next command needs the address without the password, here from the environment.
    const again = await ws.run(['study', 'list'], {
      VOICESCOPE_DATABASE_URL: `postgres://ada@127.0.0.1:${closedPort}/study`,
    });
    expect(again.code).toBe(EXIT.database);
    expect(again.stderr).toMatch(/cannot reach the database server/);
    expect(existsSync(ws.dbPath)).toBe(false);
  });
});
