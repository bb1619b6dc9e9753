/**
 * The sandbox's command line: prints its address, keys and admin token, serves until SIGTERM and then
 * exits cleanly; --help; refuses unknown scenarios.
 */
import { describe, expect, it } from 'vitest';
import { sandboxCliNodeArgs } from '../../support/cli-bundle';
import { collectLines, runNode, spawnNode, waitForLine } from '../../support/spawn';

/** Waits until the sandbox has printed everything it prints on start; returns the line after `prefix`. */
const printed = async (lines: readonly string[], prefix: string): Promise<string> => {
  for (let i = 0; i < 200 && !lines.some((l) => l.startsWith('Press Ctrl+C')); i++)
    await new Promise((r) => setTimeout(r, 50));
  return (lines.find((l) => l.startsWith(prefix)) ?? '').slice(prefix.length).trim();
};

/** The sandbox's command line: its bundle, built once per run (test/support/cli-bundle.ts), or its source through tsx. */
const sandbox = (args: string[]) => spawnNode([...sandboxCliNodeArgs(), ...args]);
const runSandbox = (args: string[]) => runNode([...sandboxCliNodeArgs(), ...args], 'the sandbox');

describe('sandbox CLI', () => {
  it('starts, prints the base URL, its random key and the admin token, serves, and stops on SIGTERM', async () => {
    const child = sandbox(['--port', '0', '--scenario', 'fast', '--admin-token', 'cli-test-token']);
    const lines = collectLines(child);
    try {
      const url = await waitForLine(child, 'Base URL: ');
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const key = (await printed(lines, 'API key: ')).split(/\s+/)[0]!;
      // Never a fixed string: a new random key per start unless one is given.
      expect(key).toMatch(/^vs-sandbox-[A-Za-z0-9_-]{32,}$/);
      const ping = await fetch(`${url}/v1.3/ping`);
      expect(ping.status).toBe(200);
      const usage = await fetch(`${url}/v1.3/usage/recordings`, {
        headers: { Authorization: `Bearer ${key}` },
      });
      expect(usage.status).toBe(200);
      const adminRes = await fetch(`${url}/_sandbox/scenario`, {
        headers: { 'X-Sandbox-Admin': 'cli-test-token' },
      });
      expect(((await adminRes.json()) as { name: string }).name).toBe('fast');
      expect(lines.join('\n')).toContain('Admin token: cli-test-token');
      expect(lines.join('\n')).toMatch(/SIMULATED/);
    } finally {
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });

  it('takes a key with --api-key and misbehaves with --misbehave, saying so', async () => {
    const child = sandbox([
      '--port',
      '0',
      '--api-key',
      'vs-my-own-key-0042',
      '--misbehave',
      'skewed_clock,unexpected_role',
      '--misbehave-seed',
      '5',
    ]);
    const lines = collectLines(child);
    try {
      const url = await waitForLine(child, 'Base URL: ');
      expect(await printed(lines, 'API key: ')).toMatch(/^vs-my-own-key-0042 /);
      const usage = await fetch(`${url}/v1.3/usage/recordings`, {
        headers: { Authorization: 'Bearer vs-my-own-key-0042' },
      });
      expect(usage.status).toBe(200);
      expect(await printed(lines, 'Misbehaving')).toContain('(seed 5): skewed_clock, unexpected_role');
    } finally {
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });

  it('an unknown misbehaviour is refused with exit code 2', async () => {
    await expect(runSandbox(['--misbehave', 'loose,grumpy'])).rejects.toThrow(/exited with 2/);
  });

  it('--help describes the options', async () => {
    const out = await runSandbox(['--help']);
    for (const opt of [
      '--port',
      '--config',
      '--state',
      '--scenario',
      '--admin-token',
      '--api-key',
      '--misbehave',
    ])
      expect(out).toContain(opt);
  });

  it('an unknown scenario is refused with exit code 2', async () => {
    await expect(runSandbox(['--scenario', 'chaotic'])).rejects.toThrow(/exited with 2/);
  });
});
