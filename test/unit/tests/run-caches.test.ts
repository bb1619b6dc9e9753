/**
 * A generated recording is synthesised once per test run: the same options give the same file, read back
 * from the run's folder, as bytes of its own for each caller.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeWav } from '../../fixtures/audio';
import { TEST_AUDIO_CACHE_ENV } from '../../support/run-caches';

const runFolder = process.env[TEST_AUDIO_CACHE_ENV];
const dirs: string[] = [];
afterEach(() => {
  if (runFolder === undefined) delete process.env[TEST_AUDIO_CACHE_ENV];
  else process.env[TEST_AUDIO_CACHE_ENV] = runFolder;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const useFolder = () => {
  const d = mkdtempSync(join(tmpdir(), 'vs-audio-cache-test-'));
  dirs.push(d);
  process.env[TEST_AUDIO_CACHE_ENV] = join(d, 'audio');
  return join(d, 'audio');
};

describe('generated recordings in a test run', () => {
  it('are kept in the run’s folder by every test tier', () => {
    expect(runFolder).toMatch(/vs-test-run-.*audio$/);
  });

  it('are synthesised once: the same options read the stored file back, each caller its own bytes', () => {
    const folder = useFolder();
    const opts = { seconds: 3, speechSeconds: 2, seed: 5 };
    const first = makeWav(opts);
    const stored = readdirSync(folder);
    expect(stored).toHaveLength(1);
    const second = makeWav(opts);
    expect(second).toEqual(first);
    second[100] = second[100]! ^ 0xff;
    expect(makeWav(opts)).toEqual(first);
    // Planted: the stored file is what the next caller gets.
    writeFileSync(join(folder, stored[0]!), Uint8Array.from([1, 2, 3]));
    expect(makeWav(opts)).toEqual(Uint8Array.from([1, 2, 3]));
    expect(makeWav({ ...opts, seed: 6 })).not.toEqual(first);
  });

  it('are synthesised afresh where no folder is given', () => {
    delete process.env[TEST_AUDIO_CACHE_ENV];
    const opts = { seconds: 3, speechSeconds: 2, seed: 5 };
    expect(makeWav(opts)).toEqual(makeWav(opts));
  });
});
