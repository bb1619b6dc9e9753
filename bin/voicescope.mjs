#!/usr/bin/env node
// The `voicescope` command: runs main/cli/voicescope.ts through tsx (the project ships TypeScript sources).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const r = spawnSync(
  process.execPath,
  [
    '--import',
    import.meta.resolve('tsx/esm'),
    join(root, 'main/cli/voicescope.ts'),
    ...process.argv.slice(2),
  ],
  { stdio: 'inherit', cwd: process.cwd(), env: process.env },
);
process.exit(r.status ?? 1);
