#!/usr/bin/env node
// The `voicescope` command: runs main/cli/voicescope.ts through tsx (the project ships TypeScript sources).
// The command runs as a child process; SIGINT, SIGTERM and SIGHUP sent to this process are passed on to
// it, and this process exits as the child did, so killing `voicescope` by its process id leaves nothing
// running behind it.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const child = spawn(
  process.execPath,
  [
    '--import',
    import.meta.resolve('tsx/esm'),
    join(root, 'main/cli/voicescope.ts'),
    ...process.argv.slice(2),
  ],
  { stdio: 'inherit', cwd: process.cwd(), env: process.env },
);
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];
for (const s of SIGNALS) process.on(s, () => child.kill(s));
child.on('error', (e) => {
  console.error(`voicescope: could not start: ${e.message}`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  if (signal) {
    // Die of the same signal, so a shell sees what happened (exit status 128 + n).
    for (const s of SIGNALS) process.removeAllListeners(s);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
