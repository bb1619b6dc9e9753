/**
 * The command line on a study kept on a real PostgreSQL 15 server (`--database`, over TLS with
 * verify-full): a profile, a study, an import that creates accounts, uploads and waits for every result,
 * the status and an export, with the rows on the server and nothing in the workspace's own file. The
 * password is given once in the address and kept in the key store; it appears in no output, no row and
 * no exported file.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EXIT } from '../../../main/cli/voicescope';
import { connectPostgres } from '../../../main/db/store/connect';
import { DEMO_API_KEY } from '../../../main/sandbox/config';
import { startSandbox, type Sandbox } from '../../../main/sandbox/server';
import { makeWav } from '../../fixtures/audio';
import { cliWorkspace, jsonLines, type CliRun } from '../../support/cli-workspace';
import { startPostgresCluster, type PostgresCluster } from '../../support/postgres-cluster';
import { describeWithTool } from '../../support/reference-tools';

describeWithTool('postgresql-15', 'voicescope on a study database on a PostgreSQL server', () => {
  const ws = cliWorkspace('vs-cli-pg-', { env: { VS_TEST_KEY: DEMO_API_KEY } });
  let cluster: PostgresCluster;
  let sandbox: Sandbox;
  let address: string;
  const said: CliRun[] = [];
  const run = async (args: string[], database = address) => {
    const r = await ws.run([...args, '--database', database, '--json']);
    said.push(r);
    return r;
  };

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    sandbox = await startSandbox({
      port: 0,
      config: {
        organisations: [{ id: 'lab', name: 'Lab', apiKeys: [DEMO_API_KEY] }],
        scenario: { preset: 'fast' },
      },
    });
    address = cluster.url(false);
    const week = join(ws.root, 'week-1');
    mkdirSync(week, { recursive: true });
    for (let i = 0; i < 3; i++)
      writeFileSync(join(week, `P-${i}_w1.wav`), makeWav({ seconds: 42, speechSeconds: 36, seed: 70 + i }));
  }, 300_000);
  afterAll(async () => {
    await sandbox?.close();
    cluster?.stop();
    ws.remove();
  });

  it('takes the password once, in the address, and keeps it in the key store', async () => {
    const withPassword = cluster.url(true);
    const r = await run(
      [
        'profile',
        'add',
        '--name',
        'lab',
        '--url',
        sandbox.url,
        '--api',
        'v1.3',
        '--key-env',
        'VS_TEST_KEY',
        '--sandbox',
      ],
      withPassword,
    );
    expect(r.code).toBe(EXIT.ok);
    expect(jsonLines(r.stdout)[0]).toMatchObject({
      kind: 'database',
      where: expect.stringMatching(/^postgres:\/\//),
    });
    expect(r.stdout).not.toContain(cluster.password);
  }, 120_000);

  it('runs a study on the server: import, accounts, uploads, every result, status and export', async () => {
    expect((await run(['study', 'create', '--name', 'Pilot', '--profile', 'lab'])).code).toBe(EXIT.ok);
    expect(
      (await run(['settings', '--first-poll', '5', '--poll-interval', '6', '--poll-jitter', '0'])).code,
    ).toBe(EXIT.ok);
    const imported = await run([
      'import',
      '--study',
      'Pilot',
      join(ws.root, 'week-1'),
      '--pattern',
      '{participant}_{session}.wav',
      '--tz',
      'UTC',
      '--yes',
      '--wait',
      '--timeout',
      '150',
    ]);
    expect(imported.stderr).toBe('');
    expect(imported.code, imported.stdout).toBe(EXIT.ok);
    const final = jsonLines(imported.stdout)
      .filter((l) => l['kind'] === 'batch')
      .at(-1) as {
      batch: { uploads: Record<string, number>; analysesByState: Record<string, number> };
    };
    expect(final.batch.uploads).toEqual({ uploaded: 3 });
    expect(final.batch.analysesByState).toEqual({ completed: 9 });
    expect(sandbox.listRecordings()).toHaveLength(3);
    const status = await run(['status', '--study', 'Pilot']);
    expect(status.code, status.stdout + status.stderr).toBe(EXIT.ok);
    const out = join(ws.root, 'export');
    mkdirSync(out);
    const exported = await run(['export', '--study', 'Pilot', '--out', out]);
    expect(exported.code, exported.stdout + exported.stderr).toBe(EXIT.ok);
    const files = readdirSync(out, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
    expect(files.length).toBeGreaterThan(0);
    for (const f of files)
      expect(readFileSync(join(f.parentPath, f.name)).includes(cluster.password)).toBe(false);
  }, 300_000);

  it('keeps the rows on the server and nothing in the workspace file; the password is in no row and no output', async () => {
    expect(existsSync(ws.dbPath)).toBe(false);
    const store = await connectPostgres(cluster.address, cluster.password);
    if (!store.ok) throw new Error(store.error.message);
    try {
      const counts = await store.value.get<{ recordings: number; analyses: number; participants: number }>(
        `SELECT (SELECT COUNT(*) FROM recordings) AS recordings,
                (SELECT COUNT(*) FROM analyses WHERE state = 'completed') AS analyses,
                (SELECT COUNT(*) FROM participants) AS participants`,
      );
      expect(counts).toEqual({ recordings: 3, analyses: 9, participants: 3 });
    } finally {
      await store.value.close();
    }
    const dump = cluster.dumpRows();
    expect(dump).toContain('Pilot');
    expect(dump).not.toContain(cluster.password);
    expect(dump).not.toContain(DEMO_API_KEY);
    for (const r of said) expect(`${r.stdout}${r.stderr}`).not.toContain(cluster.password);
  }, 120_000);
});
