/** Helpers to run a TypeScript support script in its own Node process through tsx. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
/** `node --import tsx` (not the tsx CLI, which re-spawns and drops node flags such as --expose-gc). */
const TSX_LOADER = pathToFileURL(require.resolve('tsx/esm')).href;

export const spawnTs = (
  script: string,
  args: string[] = [],
  nodeFlags: string[] = [],
  env: Readonly<Record<string, string>> = {},
): ChildProcess => spawnNode([...nodeFlags, '--import', TSX_LOADER, script, ...args], env);

/** `node` with these arguments (a bundle and its arguments, or a loader, a script and its arguments). */
export const spawnNode = (
  nodeArgs: readonly string[],
  env: Readonly<Record<string, string>> = {},
): ChildProcess =>
  spawn(process.execPath, [...nodeArgs], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });

/** Resolves with the first stdout line that starts with `prefix` (its remainder), or rejects on exit. */
export const waitForLine = (child: ChildProcess, prefix: string): Promise<string> =>
  new Promise((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      for (const line of buf.split('\n'))
        if (line.startsWith(prefix)) return resolve(line.slice(prefix.length).trim());
    });
    child.on('exit', (code) => reject(new Error(`process exited (${code}) before printing ${prefix}`)));
  });

export const runTs = (script: string, args: string[], nodeFlags: string[] = []): Promise<string> =>
  runNode([...nodeFlags, '--import', TSX_LOADER, script, ...args], script);

/** Runs `node` with these arguments to its end; its stdout, or a rejection naming `name` and a non-zero exit. */
export const runNode = async (nodeArgs: readonly string[], name: string): Promise<string> => {
  const child = spawnNode(nodeArgs);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const code = await new Promise<number | null>((r) => child.on('exit', r));
  if (code !== 0) throw new Error(`${name} exited with ${code}`);
  return out.trim();
};

/** Collects every stdout line of a running child, for assertions after the fact. */
export const collectLines = (child: ChildProcess): string[] => {
  const lines: string[] = [];
  let buf = '';
  child.stdout!.on('data', (d: Buffer) => {
    buf += d.toString();
    const parts = buf.split('\n');
    buf = parts.pop()!;
    lines.push(...parts);
  });
  return lines;
};
