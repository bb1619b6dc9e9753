/**
 * Builds the renderer and browser mode's host once before the end-to-end tests (a few seconds with
 * esbuild), and gives every host of the run the run's shared folders (test/support/run-caches.ts).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { useRunCaches } from '../../support/run-caches';

export default function globalSetup() {
  const removeRunCaches = useRunCaches();
  execFileSync(
    process.execPath,
    [join(import.meta.dirname, '..', '..', '..', 'scripts', 'build.mjs'), '--host'],
    {
      stdio: 'inherit',
    },
  );
  return removeRunCaches;
}
