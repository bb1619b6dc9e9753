#!/usr/bin/env node
// Runs npm scripts at the same time and fails if any of them fails. Each script's output is held and
// printed whole when it ends, so the logs do not interleave.
//   node scripts/run-together.mjs typecheck lint
//   node scripts/run-together.mjs test:e2e --background typecheck test:unit
// Scripts after `--background` run at a lower priority (nice 10): `npm test` runs the window journeys in
// the foreground, because they spend most of their time waiting on the host and the browser and have
// timeouts, and lets the typecheck and the vitest files take every cycle the journeys leave
// (docs/testing.md, "How npm test uses the two cores").
import { spawn } from 'node:child_process';

const args = process.argv.slice(2);
const split = args.indexOf('--background');
const foreground = split < 0 ? args : args.slice(0, split);
const background = split < 0 ? [] : args.slice(split + 1);
if (foreground.length + background.length === 0) {
  console.error('usage: node scripts/run-together.mjs <npm script> ... [--background <npm script> ...]');
  process.exit(2);
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const commandOf = (name, niced) =>
  niced && process.platform !== 'win32' ? ['nice', ['-n', '10', npm, 'run', name]] : [npm, ['run', name]];

const run = (name, niced) =>
  new Promise((resolve) => {
    const started = Date.now();
    const out = [];
    const [command, commandArgs] = commandOf(name, niced);
    const child = spawn(command, commandArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
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

const results = await Promise.all([
  ...foreground.map((name) => run(name, false)),
  ...background.map((name) => run(name, true)),
]);
process.exit(results.every(Boolean) ? 0 : 1);
