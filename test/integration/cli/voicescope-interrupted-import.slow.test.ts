/**
 * No gap between import and batch: `voicescope import --yes` killed between the import's
 * commit and the batch's start leaves a batch that says it was meant to start. The next command finds it:
 * a re-import says its files already wait in that batch, `status` says so and how to start it (exit 4, not
 * 0 while nothing is sent), and `wait` starts it, creates the accounts the import would have and sends
 * every file.
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

const root = mkdtempSync(join(tmpdir(), 'vs-interrupted-'));
const home = join(root, 'home');
const folder = join(root, 'week-1');
let sandbox: Sandbox;

type Lines = Record<string, unknown>[];
const parse = (out: string): Lines =>
  out
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

const start = (args: string[], env: Record<string, string> = {}) => {
  const child = spawn(process.execPath, [...voicescopeNodeArgs(), '--home', home, ...args, '--json'], {
    env: { ...process.env, VS_TEST_KEY: DEMO_API_KEY, ...env },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.on('exit', (code, signal) => r({ code, signal })),
  );
  return { child, exited, out: () => out, err: () => err };
};

const run = async (args: string[]): Promise<{ code: number; lines: Lines; stderr: string }> => {
  const c = start(args);
  const { code } = await c.exited;
  return { code: code ?? -1, lines: parse(c.out()), stderr: c.err() };
};

const importArgs = [
  'import',
  '--study',
  'Pilot',
  folder,
  '--pattern',
  '{participant}_{session}.wav',
  '--tz',
  'UTC',
];

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    config: {
      organisations: [{ id: 'lab', name: 'Lab', apiKeys: [DEMO_API_KEY] }],
      scenario: { preset: 'fast' },
    },
  });
  mkdirSync(folder, { recursive: true });
  for (let i = 0; i < 2; i++)
    writeFileSync(join(folder, `P-${i}_w1.wav`), makeWav({ seconds: 44, speechSeconds: 38, seed: 70 + i }));
  const setup = [
    [
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
    ],
    ['study', 'create', '--name', 'Pilot', '--profile', 'sandbox'],
    ['settings', '--first-poll', '5', '--poll-interval', '6', '--poll-jitter', '0', '--budget', '20'],
  ];
  for (const args of setup) expect((await run(args)).code).toBe(EXIT.ok);
}, 120_000);
afterAll(async () => {
  await sandbox.close();
  rmSync(root, { recursive: true, force: true });
});

describe('an import killed between its commit and its batch start', () => {
  it('is killed there: the batch is written, nothing was sent and no account was asked for', async () => {
    const c = start([...importArgs, '--yes'], {
      VOICESCOPE_TEST_HOOKS: '1',
      VOICESCOPE_TEST_HOLD_AFTER_COMMIT: '1',
    });
    for (let i = 0; i < 600 && !c.out().includes('"test-hold"'); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(c.out()).toContain('"test-hold"');
    c.child.kill('SIGKILL');
    expect((await c.exited).signal).toBe('SIGKILL');
    expect(parse(c.out()).find((l) => l['kind'] === 'batch')).toMatchObject({ batchId: 1 });
    const sent = sandbox
      .requestLog()
      .filter((l) => l.endpoint === 'upload' || l.endpoint === 'createAccount');
    expect(sent).toHaveLength(0);
  }, 120_000);

  it('importing the same folder again says the files already wait in that batch, never started', async () => {
    const r = await run(importArgs);
    expect(r.code).toBe(EXIT.ok);
    const plan = r.lines.find((l) => l['kind'] === 'plan') as {
      counts: Record<string, number>;
      text?: string;
    };
    expect(plan.counts).toMatchObject({ duplicate: 2 });
    expect(JSON.stringify(r.lines)).toMatch(/already imported in batch 1, which was never started/);
    expect(JSON.stringify(r.lines)).toMatch(/voicescope batch resume --batch 1/);
  }, 120_000);

  it('status finds the batch and says how to start it: exit 4 (a decision), not 0', async () => {
    const r = await run(['status', '--study', 'Pilot']);
    expect(r.lines.find((l) => l['kind'] === 'batch')).toMatchObject({
      batch: { batchId: 1, state: 'open' },
    });
    expect(r.lines.find((l) => l['interruptedBatch'] === 1)).toMatchObject({
      kind: 'problem',
      message: expect.stringMatching(
        /Batch 1 was imported to be sent, but the import stopped before starting it/,
      ),
      action: expect.stringMatching(/voicescope wait --study/),
    });
    expect(r.code).toBe(EXIT.decide);
  }, 120_000);

  it('wait starts it, creates the accounts the import would have created and sends every file', async () => {
    const r = await run(['wait', '--study', 'Pilot', '--timeout', '120']);
    expect(r.stderr).toBe('');
    expect(r.lines[0]).toMatchObject({ kind: 'resumed', batchId: 1 });
    expect(r.lines.find((l) => l['kind'] === 'accounts')).toMatchObject({
      created: [expect.objectContaining({ code: 'P-0' }), expect.objectContaining({ code: 'P-1' })],
    });
    const final = r.lines.filter((l) => l['kind'] === 'batch').at(-1) as {
      batch: { state: string; uploads: Record<string, number> };
    };
    expect(final.batch).toMatchObject({ state: 'finished', uploads: { uploaded: 2 } });
    expect(r.code).toBe(EXIT.ok);
    expect(sandbox.listRecordings()).toHaveLength(2);
  }, 180_000);

  it('a batch started once is not started again: a later wait resumes nothing', async () => {
    const r = await run(['wait', '--study', 'Pilot', '--timeout', '60']);
    expect(r.lines.some((l) => l['kind'] === 'resumed')).toBe(false);
    expect(r.code).toBe(EXIT.ok);
  }, 120_000);
});
