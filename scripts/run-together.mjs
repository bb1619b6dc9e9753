#!/usr/bin/env node
// Runs npm scripts at the same time and fails if any of them fails (`npm test` runs the typecheck and
// the lint together: neither writes anything, and on two cores they overlap well, docs/testing.md).
// Each script's output is held and printed whole when it ends, so the two logs do not interleave.
//   node scripts/run-together.mjs typecheck lint
import { spawn } from 'node:child_process';

const names = process.argv.slice(2);
if (names.length === 0) {
  console.error('usage: node scripts/run-together.mjs <npm script> [<npm script> ...]');
  process.exit(2);
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const run = (name) =>
  new Promise((resolve) => {
    const started = Date.now();
    const out = [];
    const child = spawn(npm, ['run', name], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => out.push(d));
    child.on('error', (e) => out.push(Buffer.from(`${e.message}\n`)));
    child.on('close', (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const ok = code === 0;
      process.stdout.write(Buffer.concat(out));
      console.log(
        `${ok ? '✓' : '✗'} npm run ${name}: ${ok ? 'passed' : `failed (${signal ?? code})`} in ${seconds} s`,
      );
      resolve(ok);
    });
  });

const results = await Promise.all(names.map(run));
process.exit(results.every(Boolean) ? 0 : 1);
