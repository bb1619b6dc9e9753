/**
 * Builds the renderer once before the end-to-end tests (about a second with esbuild), and gives every
 * host of the run one folder of speech estimates (test/support/speech-cache-folder.ts).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { useRunSpeechCache } from '../../support/speech-cache-folder';

export default function globalSetup() {
  const removeSpeechCache = useRunSpeechCache();
  execFileSync(process.execPath, [join(import.meta.dirname, '..', '..', '..', 'scripts', 'build.mjs')], {
    stdio: 'inherit',
  });
  return removeSpeechCache;
}
