/**
 * Global set-up of every test tier (vitest.config.ts, vitest.slow.config.ts, Playwright's global set-up):
 * a folder of this run's own for the speech estimates already made (main/audio/speech-cache.ts), handed
 * to every test process, worker thread and host through `VOICESCOPE_SPEECH_CACHE`, and removed at the
 * end. The same generated recording is then run through the Silero model once per run, not once per test
 * file, preview and upload; a new run starts empty, so a changed estimate is always measured afresh.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SPEECH_CACHE_ENV } from '../../main/audio/speech-cache';

export const useRunSpeechCache = (): (() => void) => {
  const dir = mkdtempSync(join(tmpdir(), 'vs-speech-cache-'));
  process.env[SPEECH_CACHE_ENV] = dir;
  return () => rmSync(dir, { recursive: true, force: true });
};

export default useRunSpeechCache;
