/**
 * The sandbox's command line: prints its address, keys and admin token, serves until SIGTERM and then
 * exits cleanly; --help; refuses unknown scenarios.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_API_KEY } from '../../../main/sandbox/config';
import { collectLines, runTs, spawnTs, waitForLine } from '../../support/spawn';

const CLI = join(import.meta.dirname, '..', '..', '..', 'main', 'sandbox', 'cli.ts');

describe('sandbox CLI', () => {
  it('starts, prints the base URL, the demo key and the admin token, serves, and stops on SIGTERM', async () => {
    const child = spawnTs(CLI, ['--port', '0', '--scenario', 'fast', '--admin-token', 'cli-test-token']);
    const lines = collectLines(child);
    try {
      const url = await waitForLine(child, 'Base URL: ');
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const ping = await fetch(`${url}/v1.3/ping`);
      expect(ping.status).toBe(200);
      const usage = await fetch(`${url}/v1.3/usage/recordings`, {
        headers: { Authorization: `Bearer ${DEMO_API_KEY}` },
      });
      expect(usage.status).toBe(200);
      const adminRes = await fetch(`${url}/_sandbox/scenario`, {
        headers: { 'X-Sandbox-Admin': 'cli-test-token' },
      });
      expect(((await adminRes.json()) as { name: string }).name).toBe('fast');
      expect(lines.join('\n')).toContain(`API key: ${DEMO_API_KEY}`);
      expect(lines.join('\n')).toContain('Admin token: cli-test-token');
      expect(lines.join('\n')).toMatch(/SIMULATED/);
    } finally {
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });

  it('--help describes the options', async () => {
    const out = await runTs(CLI, ['--help']);
    for (const opt of ['--port', '--config', '--state', '--scenario', '--admin-token'])
      expect(out).toContain(opt);
  });

  it('an unknown scenario is refused with exit code 2', async () => {
    await expect(runTs(CLI, ['--scenario', 'chaotic'])).rejects.toThrow(/exited with 2/);
  });
});
