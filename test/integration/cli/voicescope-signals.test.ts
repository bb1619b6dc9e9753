/**
 * The command line behaves like a Unix tool: a signal sent to the `voicescope` process (bin/voicescope.mjs)
 * reaches the command it runs, so killing it by its process id leaves no engine running behind it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const BIN = join(import.meta.dirname, '../../../bin/voicescope.mjs');
const home = mkdtempSync(join(tmpdir(), 'vs-signals-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Child processes of `pid` (Linux /proc), to find the engine behind the launcher. */
const childrenOf = async (pid: number): Promise<number[]> => {
  const { readFile } = await import('node:fs/promises');
  try {
    const text = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8');
    return text.trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
};

describe.skipIf(process.platform !== 'linux')('voicescope and signals', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} sent to voicescope stops the engine it started: no orphan`, async () => {
      const launcher = spawn(process.execPath, [BIN, '--home', home, 'run'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      launcher.stdout.on('data', (d: Buffer) => (out += String(d)));
      launcher.stderr.on('data', (d: Buffer) => (out += String(d)));
      for (let i = 0; i < 300 && !/running/i.test(out); i++) await new Promise((r) => setTimeout(r, 100));
      expect(out).toMatch(/running/i);
      const engine = (await childrenOf(launcher.pid!))[0]!;
      expect(engine).toBeGreaterThan(0);
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        launcher.on('exit', (code, sig) => resolve({ code, signal: sig })),
      );
      launcher.kill(signal);
      const r = await exited;
      expect(r.code === 0 || r.signal === signal).toBe(true);
      for (let i = 0; i < 50 && alive(engine); i++) await new Promise((res) => setTimeout(res, 100));
      expect(alive(engine)).toBe(false);
    }, 60_000);
  }
});
