#!/usr/bin/env node
// Bundles the `voicescope` command (main/cli/voicescope.ts) with its worker threads into <dir>, and the
// sandbox's command line (main/sandbox/cli.ts, sandbox.mjs) beside them, as the
// Electron shell and browser mode's host are bundled (scripts/node-bundles.mjs). The vitest tiers build
// it once per run (test/support/cli-bundle.ts): each command the tests start then loads one file
// instead of the sources through tsx. <dir> must lie inside the project, so that the bundle finds
// node_modules (better-sqlite3, onnxruntime-node and the Silero model stay outside it).
//   node scripts/build-cli.mjs <dir>
import { join, resolve } from 'node:path';
import { buildNodeBundles, buildNodeEsmBundle } from './node-bundles.mjs';

const [dir] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node scripts/build-cli.mjs <dir>');
  process.exit(2);
}
const root = resolve(import.meta.dirname, '..');
await buildNodeBundles({ voicescope: join(root, 'main/cli/voicescope.ts') }, resolve(dir));
await buildNodeEsmBundle({ sandbox: join(root, 'main/sandbox/cli.ts') }, resolve(dir));
