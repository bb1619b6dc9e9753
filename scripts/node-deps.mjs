// The npm dependencies, installed when missing or older than package-lock.json: `npm start` and
// `npm test` both begin here. Plain Node with no dependencies, because it runs before `npm ci`.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Nothing is downloaded at install or run time: Electron's binary and Playwright's browsers would come
 * from hosts our machines cannot reach (the tests use Debian's Chromium), and onnxruntime-node's install
 * step would download GPU libraries.
 */
export const NO_DOWNLOADS = {
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
  ELECTRON_SKIP_BINARY_DOWNLOAD: '1',
  ONNXRUNTIME_NODE_INSTALL: 'skip',
};

export const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs `npm ci` when node_modules is missing or older than the lock file; false if it failed. */
export const installNodeModules = (root, env) => {
  const installed = join(root, 'node_modules', '.package-lock.json');
  const lock = join(root, 'package-lock.json');
  if (existsSync(installed) && statSync(lock).mtimeMs <= statSync(installed).mtimeMs) return true;
  console.log('Installing dependencies (first run takes a few minutes: better-sqlite3 is compiled)…');
  return spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: root, env, stdio: 'inherit' }).status === 0;
};
