/**
 * Issue 13 through the command line against the sandbox: a service that never answers a poll, and one
 * that loses the answer to every account request. `voicescope wait` always returns, and its exit code
 * says what happened (docs/cli.md): 8 when analyses got no result in time, 4 when files wait for a
 * decision on their participant's account; never 0 unless every analysis completed.
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

const root = mkdtempSync(join(tmpdir(), 'vs-cli-end-'));
const home = join(root, 'home');
let sandbox: Sandbox;

type Line = Record<string, unknown>;
const run = (args: string[]): Promise<{ code: number; lines: Line[]; stderr: string; ms: number }> =>
  new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [...voicescopeNodeArgs(), '--home', home, ...args, '--json'], {
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
          .map((l) => JSON.parse(l) as Line),
        stderr: err,
        ms: Date.now() - started,
      }),
    );
  });

// Each folder has audio of its own: the same audio in two studies would be held as a duplicate.
let folders = 0;
const folder = (name: string, participants: string[]) => {
  const dir = join(root, name);
  const base = 70 + 100 * folders++;
  mkdirSync(dir, { recursive: true });
  participants.forEach((p, i) =>
    writeFileSync(join(dir, `${p}_s1.wav`), makeWav({ seconds: 40, speechSeconds: 34, seed: base + i })),
  );
  return dir;
};
const importArgs = (study: string, dir: string) => [
  'import',
  '--study',
  study,
  dir,
  '--pattern',
  '{participant}_{session}.wav',
  '--tz',
  'UTC',
  '--analyses',
  'wellbeing',
  '--yes',
];
const recordings = (r: { lines: Line[] }) =>
  (r.lines.filter((l) => l['kind'] === 'recordings').at(-1) as { recordingStates: Record<string, number> })
    .recordingStates;

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    config: {
      organisations: [{ id: 'lab', name: 'Lab', apiKeys: [DEMO_API_KEY] }],
      scenario: { preset: 'fast' },
    },
  });
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
    ['study', 'create', '--name', 'Silent', '--profile', 'sandbox'],
    ['study', 'create', '--name', 'NoAccounts', '--profile', 'sandbox'],
    // Short patience for the test: polls every 5 s, timed out after 12 s; slow re-checks for 10 minutes.
    [
      'settings',
      '--first-poll',
      '5',
      '--poll-interval',
      '5',
      '--poll-jitter',
      '0',
      '--poll-timeout',
      '12',
      '--recheck-interval',
      '60',
      '--recheck-for',
      '600',
      '--budget',
      '20',
    ],
  ];
  for (const args of setup) expect((await run(args)).code).toBe(EXIT.ok);
}, 240_000);
afterAll(async () => {
  await sandbox.close();
  rmSync(root, { recursive: true, force: true });
});

describe('voicescope wait against a service that never answers a poll', () => {
  it('returns soon after the timeout with exit code 8, every recording timed out', async () => {
    sandbox.setScenario({ preset: 'fast', faults: { getAnalysis: { http500: 1 } } });
    const r = await run([
      ...importArgs('Silent', folder('silent', ['A', 'B', 'C'])),
      '--wait',
      '--timeout',
      '120',
    ]);
    expect(r.code).toBe(EXIT.noResult);
    expect(recordings(r)).toEqual({ timed_out: 3 });
    expect(r.ms).toBeLessThan(90_000);
    expect(sandbox.listRecordings()).toHaveLength(3);
  }, 300_000);

  it('status counts the recordings per state; --timeout running out is a different code', async () => {
    const s = await run(['status', '--study', 'Silent']);
    expect(s.code).toBe(EXIT.ok);
    expect(recordings(s)).toEqual({ timed_out: 3 });
    expect(EXIT.timeout).not.toBe(EXIT.noResult);
  }, 300_000);
});

describe('voicescope import when no account could be created', () => {
  it('does not say finished, exits 4, and names the participants whose account is uncertain', async () => {
    sandbox.setScenario({ preset: 'fast', faults: { createAccount: { http500: 1 } } });
    const before = sandbox.requestLog().filter((l) => l.endpoint === 'createAccount').length;
    const r = await run(importArgs('NoAccounts', folder('noacc', ['X', 'Y'])));
    expect(r.code).toBe(EXIT.decide);
    expect(JSON.stringify(r.lines)).not.toMatch(/finished/);
    expect(r.lines.filter((l) => l['accountUncertain'] === true)).toHaveLength(2);
    // Each request was sent once: an unknown outcome is never repeated on its own.
    expect(sandbox.requestLog().filter((l) => l.endpoint === 'createAccount').length - before).toBe(2);
  }, 300_000);

  it('wait then does not return 0: the files were never sent', async () => {
    const r = await run(['wait', '--study', 'NoAccounts', '--timeout', '60']);
    expect(r.code).toBe(EXIT.decide);
    expect(recordings(r)).toEqual({ pending: 2 });
  }, 300_000);

  it('the researcher decides: ask again for one, leave the other (its file withdrawn); wait then exits 0', async () => {
    sandbox.setScenario({ preset: 'fast' });
    expect(
      (await run(['account', '--study', 'NoAccounts', '--participant', 'X', '--decision', 'retry'])).code,
    ).toBe(EXIT.ok);
    expect(
      (await run(['account', '--study', 'NoAccounts', '--participant', 'Y', '--decision', 'leave'])).code,
    ).toBe(EXIT.ok);
    const r = await run(['wait', '--study', 'NoAccounts', '--timeout', '90']);
    expect(r.code).toBe(EXIT.ok);
    expect(recordings(r)).toEqual({ completed: 1, cancelled: 1 });
  }, 300_000);
});
