#!/usr/bin/env node
// `npm start`: installs what is missing, then launches what the workstation has so far.
// Plain Node with no dependencies, because it runs before `npm ci` has installed anything.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', ELECTRON_SKIP_BINARY_DOWNLOAD: '1' };
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const installed = join(root, 'node_modules', '.package-lock.json');
const lock = join(root, 'package-lock.json');
if (!existsSync(installed) || statSync(lock).mtimeMs > statSync(installed).mtimeMs) {
  console.log('Installing dependencies (first run takes a few minutes: better-sqlite3 is compiled)…');
  const r = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: root, env, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

// The workstation window (Electron, or browser mode where no Electron binary exists) arrives with the
// UI. Until then `npm start` runs the sandbox service, the simulated Speech Analysis service that the
// workstation and its tests talk to.
console.log('Voicescope: the workstation window is not built yet; starting the sandbox service (simulated results).');
const child = spawn(process.execPath, ['--import', 'tsx/esm', join(root, 'main', 'sandbox', 'cli.ts'), ...process.argv.slice(2)], {
  cwd: root, env, stdio: 'inherit',
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => process.exit(code ?? 0));
