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

/**
 * Child processes of `pid`, found by reading every process's parent in /proc/<n>/stat (the per-thread
 * `children` file lists only the children of one thread, so it can miss a child another thread forked).
 */
const childrenOf = async (pid: number): Promise<number[]> => {
  const { readdir, readFile } = await import('node:fs/promises');
  const found: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = await readFile(`/proc/${name}/stat`, 'utf8');
      // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) found.push(Number(name));
    } catch {
      // the process ended while we looked
    }
  }
  return found;
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
      let children: number[] = [];
      for (let i = 0; i < 50 && children.length === 0; i++) {
        children = await childrenOf(launcher.pid!);
        if (children.length === 0) await new Promise((r) => setTimeout(r, 100));
      }
      expect(children).toHaveLength(1);
      const engine = children[0]!;
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
