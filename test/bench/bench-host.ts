/**
 * Browser mode's host for the UI benches and probes (ui.bench.ts, first-screen-breakdown.ts,
 * charts-breakdown.ts): `main/node-host.ts` on a workspace, without opening a browser, resolved with its
 * address once it prints BRIDGE_READY. `rendererDir` serves another build of the window (test hook);
 * `root` runs another checkout's host (first-screen-ab.ts: a built tree with node_modules).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

export const startBenchHost = async (
  home: string,
  rendererDir?: string,
  root: string = ROOT,
): Promise<{ child: ChildProcess; url: string; readyMs: number }> => {
  const t0 = performance.now();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx/esm', join(root, 'main/node-host.ts'), '--home', home, '--no-open'],
    {
      cwd: root,
      env: {
        ...process.env,
        CI: '1',
        ...(rendererDir ? { VOICESCOPE_TEST_HOOKS: '1', VOICESCOPE_TEST_RENDERER_DIR: rendererDir } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /BRIDGE_READY (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.stderr!.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.on('exit', () => reject(new Error(out)));
  });
  return { child, url, readyMs: performance.now() - t0 };
};
