/**
 * The `voicescope` command line, as a lab server's scheduled job uses it: JSON lines on stdout,
 * meaningful exit codes, a preview that writes and sends nothing, and a full import that waits for
 * the results, against the sandbox.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../main/cli/voicescope';
import { DEMO_API_KEY } from '../../../main/sandbox/config';
import { startSandbox, type Sandbox } from '../../../main/sandbox/server';
import { makeWav } from '../../fixtures/audio';
import { voicescopeNodeArgs } from '../../support/cli-bundle';

const root = mkdtempSync(join(tmpdir(), 'vs-cli-'));
const home = join(root, 'home');
let sandbox: Sandbox;

const run = (args: string[]): Promise<{ code: number; lines: Record<string, unknown>[]; stderr: string }> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [...voicescopeNodeArgs(), '--home', home, ...args], {
      env: { ...process.env, VS_TEST_KEY: DEMO_API_KEY },
    });
    let out = '',
      err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.on('exit', (code) =>
      resolve({
        code: code ?? -1,
        lines: out
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>),
        stderr: err,
      }),
    );
  });

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    config: {
      organisations: [{ id: 'lab', name: 'Lab', apiKeys: [DEMO_API_KEY] }],
      scenario: { preset: 'fast' },
    },
  });
  const dir = join(root, 'week-1');
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < 4; i++)
    writeFileSync(
      join(dir, `P-${i % 2}_w1-${i}.wav`),
      makeWav({ seconds: 44, speechSeconds: i === 3 ? 10 : 36, seed: 40 + i }),
    );
});
afterAll(async () => {
  await sandbox.close();
  rmSync(root, { recursive: true, force: true });
});

describe('voicescope', () => {
  it('refuses wrong usage with exit code 2 and says what is missing', async () => {
    const r = await run(['study', 'create', '--json']);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toMatch(/--profile is required/);
  });

  it('sets up a profile (key from the environment, never the command line) and a study', async () => {
    const p = await run([
      'profile',
      'add',
      '--name',
      'sandbox',
      '--url',
      sandbox.url,
      '--api',
      'v1.3',
      '--key-env',
      'VS_TEST_KEY',
      '--sandbox',
      '--json',
    ]);
    expect(p.code).toBe(EXIT.ok);
    expect(p.lines[0]).toMatchObject({ kind: 'profile', profile: { keyRef: 'env:VS_TEST_KEY' } });
    expect((await run(['profile', 'test', '--profile', 'sandbox', '--json'])).code).toBe(EXIT.ok);
    expect((await run(['study', 'create', '--name', 'Pilot', '--profile', 'sandbox', '--json'])).code).toBe(
      EXIT.ok,
    );
    expect(
      (
        await run([
          'settings',
          '--first-poll',
          '5',
          '--poll-interval',
          '6',
          '--poll-jitter',
          '0',
          '--budget',
          '20',
          '--json',
        ])
      ).code,
    ).toBe(EXIT.ok);
  }, 120_000); // five command-line processes: over 30 s on the shared 2-core machine

  it('previews an import without writing or sending anything', async () => {
    const r = await run([
      'import',
      '--study',
      'Pilot',
      join(root, 'week-1'),
      '--pattern',
      '{participant}_{session}.wav',
      '--tz',
      'UTC',
      '--json',
    ]);
    expect(r.code).toBe(EXIT.ok);
    expect(r.lines.find((l) => l['kind'] === 'plan')).toMatchObject({
      counts: { upload: 3, refused: 1 },
      newParticipants: ['P-0', 'P-1'],
    });
    expect(r.lines.at(-1)).toMatchObject({ kind: 'preview' });
    expect(
      sandbox.requestLog().filter((l) => l.endpoint === 'upload' || l.endpoint === 'createAccount'),
    ).toHaveLength(0);
  }, 120_000);

  it('imports, creates accounts, uploads, waits for results and exits 3 because one file was refused', async () => {
    const r = await run([
      'import',
      '--study',
      'Pilot',
      join(root, 'week-1'),
      '--pattern',
      '{participant}_{session}.wav',
      '--tz',
      'UTC',
      '--yes',
      '--wait',
      '--timeout',
      '120',
      '--json',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(EXIT.refused);
    const kinds = r.lines.map((l) => l['kind']);
    expect(kinds).toEqual(expect.arrayContaining(['plan', 'batch', 'accounts', 'credits', 'started']));
    const final = r.lines.filter((l) => l['kind'] === 'batch').at(-1) as {
      batch: { uploads: Record<string, number>; analysesByState: Record<string, number> };
    };
    expect(final.batch.uploads).toEqual({ uploaded: 3, refused_locally: 1 });
    expect(final.batch.analysesByState).toEqual({ completed: 9 });
    expect(sandbox.listRecordings()).toHaveLength(3);
  }, 120_000);

  it('reports status with exit 0 when nothing needs a decision', async () => {
    const r = await run(['status', '--study', 'Pilot', '--json']);
    expect(r.code).toBe(EXIT.ok);
    expect(r.lines[0]).toMatchObject({ kind: 'batch', batch: { state: 'finished' } });
  });
});
