/**
 * Global set-up of every test tier (vitest.config.ts, vitest.slow.config.ts, Playwright's global set-up):
 * a folder of this run's own, handed to every test process, worker thread and host through the
 * environment, and removed at the end. It holds what the tests would otherwise make again and again from
 * the same inputs:
 *
 * - the speech estimates already made (`VOICESCOPE_SPEECH_CACHE`, main/audio/speech-cache.ts): the same
 *   generated recording runs through the Silero model once per run, not once per test file, preview and
 *   upload;
 * - the generated recordings (`VOICESCOPE_TEST_AUDIO_CACHE`, `makeWav` in test/fixtures/audio.ts): the same
 *   options and seed give the same file, synthesised once per run.
 *
 * A new run starts empty, so a changed estimate or generator is always run afresh.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SPEECH_CACHE_ENV } from '../../main/audio/speech-cache';

export const TEST_AUDIO_CACHE_ENV = 'VOICESCOPE_TEST_AUDIO_CACHE';

export const useRunCaches = (): (() => void) => {
  const dir = mkdtempSync(join(tmpdir(), 'vs-test-run-'));
  process.env[SPEECH_CACHE_ENV] = join(dir, 'speech');
  process.env[TEST_AUDIO_CACHE_ENV] = join(dir, 'audio');
  return () => rmSync(dir, { recursive: true, force: true });
};

export default useRunCaches;
