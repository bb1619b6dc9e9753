/** Builds the renderer once before the end-to-end tests (about a second with esbuild). */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export default function globalSetup() {
  execFileSync(process.execPath, [join(import.meta.dirname, '..', '..', '..', 'scripts', 'build.mjs')], {
    stdio: 'inherit',
  });
}
