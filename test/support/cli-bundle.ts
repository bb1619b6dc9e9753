/**
 * How the tests start the `voicescope` command. The vitest tiers' global set-up (this file's default
 * export, in vitest.config.ts and vitest.slow.config.ts) bundles it once per run (scripts/build-cli.mjs:
 * esbuild, as browser mode's host is bundled for the window journeys) and names the bundle in
 * `VOICESCOPE_TEST_CLI`; each command a test starts then loads that one file instead of the sources
 * through tsx, as bin/voicescope.mjs runs them. The sandbox's command line is bundled beside it
 * (`VOICESCOPE_TEST_SANDBOX_CLI`). Without the variables (a test file run by other means), the sources
 * run through tsx.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const TEST_CLI_ENV = 'VOICESCOPE_TEST_CLI';
/** The sandbox's command line (main/sandbox/cli.ts), bundled beside the command (sandbox.mjs). */
export const TEST_SANDBOX_CLI_ENV = 'VOICESCOPE_TEST_SANDBOX_CLI';

const ROOT = join(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'main/cli/voicescope.ts');
const SANDBOX_CLI = join(ROOT, 'main/sandbox/cli.ts');
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href;

/** The arguments of `node` that start the command (the command's own arguments follow them). */
export const voicescopeNodeArgs = (): string[] => {
  const bundle = process.env[TEST_CLI_ENV];
  return bundle ? [bundle] : ['--import', TSX, CLI];
};

/** The arguments of `node` that start the sandbox's command line (its own arguments follow them). */
export const sandboxCliNodeArgs = (): string[] => {
  const bundle = process.env[TEST_SANDBOX_CLI_ENV];
  return bundle ? [bundle] : ['--import', TSX, SANDBOX_CLI];
};

/** Builds the bundle inside the project (where it finds node_modules); returns its removal. */
export default function buildCliBundle(): () => void {
  mkdirSync(join(ROOT, 'out'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, 'out', 'test-cli-'));
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-cli.mjs'), dir], { stdio: 'inherit' });
  process.env[TEST_CLI_ENV] = join(dir, 'voicescope.cjs');
  process.env[TEST_SANDBOX_CLI_ENV] = join(dir, 'sandbox.mjs');
  return () => rmSync(dir, { recursive: true, force: true });
}
