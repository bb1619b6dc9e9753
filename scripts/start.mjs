#!/usr/bin/env node
// `npm start`: installs what is missing, builds the window, then opens the workstation: in Electron when
// its binary is installed, otherwise in browser mode (the same services and window, served to your
// browser on this computer only; the address with its secret token is printed and opened).
// Plain Node with no dependencies, because it runs before `npm ci` has installed anything.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installNodeModules, NO_DOWNLOADS } from './node-deps.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env, ...NO_DOWNLOADS };
if (!installNodeModules(root, env)) process.exit(1);

/** The Electron binary, when its installer could download it (never on our CI machines). */
const electronBinary = () => {
  try {
    const pathFile = join(root, 'node_modules', 'electron', 'path.txt');
    const bin = join(root, 'node_modules', 'electron', 'dist', readFileSync(pathFile, 'utf8').trim());
    return existsSync(bin) ? bin : null;
  } catch {
    return null;
  }
};

const args = process.argv.slice(2);
const bin = electronBinary();
const useElectron =
  bin !== null && existsSync(join(root, 'main', 'electron', 'main.ts')) && !args.includes('--browser');
const build = spawnSync(
  process.execPath,
  [join(root, 'scripts', 'build.mjs'), ...(useElectron ? ['--electron'] : [])],
  { cwd: root, env, stdio: 'inherit' },
);
if (build.status !== 0) process.exit(build.status ?? 1);

const child = useElectron
  ? spawn(bin, [join(root, 'out', 'main', 'main.cjs'), ...args], { cwd: root, env, stdio: 'inherit' })
  : (console.log(
      bin === null
        ? 'Voicescope: no Electron binary is installed here, so the workstation opens in browser mode.'
        : 'Voicescope: browser mode.',
    ),
    spawn(
      process.execPath,
      ['--import', 'tsx/esm', join(root, 'main', 'node-host.ts'), ...args.filter((a) => a !== '--browser')],
      { cwd: root, env, stdio: 'inherit' },
    ));
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => process.exit(code ?? 0));
