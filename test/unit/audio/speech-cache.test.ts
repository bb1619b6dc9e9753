/**
 * The estimates already made: with a cache folder, a recording is run through the model once and every
 * later ask (another file name, another process) reads that answer; without one, as in the product,
 * nothing is stored. Every test tier gives its run a folder of its own.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SPEECH_CACHE_ENV } from '../../../main/audio/speech-cache';
import { measureSpeechInParallel } from '../../../main/audio/speech-pool';
import { parseWavHeader } from '../../../main/audio/wav';
import { measureWavBytesSpeech, measureFileSpeech } from '../../../main/audio/file-speech';
import { makeWav } from '../../fixtures/audio';

const runFolder = process.env[SPEECH_CACHE_ENV];
const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'vs-speech-cache-test-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  if (runFolder === undefined) delete process.env[SPEECH_CACHE_ENV];
  else process.env[SPEECH_CACHE_ENV] = runFolder;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const wav = makeWav({ seconds: 6, speechSeconds: 4, seed: 71 });
const info = () => {
  const r = parseWavHeader(wav);
  if (!r.ok) throw new Error('the test WAV does not parse');
  return r.value;
};

describe('the speech estimates already made', () => {
  it('are kept for this run by every test tier', () => {
    expect(runFolder).toMatch(/vs-test-run-.*speech$/);
  });

  it('measure a recording once: the same audio under another name is read from the folder', async () => {
    process.env[SPEECH_CACHE_ENV] = join(tempDir(), 'cache');
    const files = tempDir();
    writeFileSync(join(files, 'a.wav'), wav);
    writeFileSync(join(files, 'b.wav'), wav);
    const first = await measureFileSpeech({ path: join(files, 'a.wav'), choice: 'auto' });
    expect(first.sent.speechSeconds).toBeGreaterThan(2);
    const stored = readdirSync(process.env[SPEECH_CACHE_ENV]!);
    expect(stored).toHaveLength(1);
    // A stored answer is what the next ask gets, whoever asks: planted here to show it is read, not redone.
    const planted = { ...first, sent: { ...first.sent, speechSeconds: 1.25 } };
    writeFileSync(join(process.env[SPEECH_CACHE_ENV]!, stored[0]!), JSON.stringify(planted));
    const again = await measureSpeechInParallel([{ path: join(files, 'b.wav'), choice: 'auto' }]);
    expect(again).toEqual([{ ok: true, value: planted }]);
  });

  it('keep what was measured apart: a file, the same bytes in memory, another channel choice', async () => {
    process.env[SPEECH_CACHE_ENV] = join(tempDir(), 'cache');
    const files = tempDir();
    writeFileSync(join(files, 'a.wav'), wav);
    await measureFileSpeech({ path: join(files, 'a.wav'), choice: 'auto' });
    await measureFileSpeech({ path: join(files, 'a.wav'), choice: 'mix' });
    const inMemory = await measureWavBytesSpeech(wav, info());
    expect(readdirSync(process.env[SPEECH_CACHE_ENV]!)).toHaveLength(3);
    expect(inMemory.speechSeconds).toBeGreaterThan(2);
  });

  it('are not kept where no folder is given, as in the product', async () => {
    delete process.env[SPEECH_CACHE_ENV];
    const files = tempDir();
    writeFileSync(join(files, 'a.wav'), wav);
    await measureFileSpeech({ path: join(files, 'a.wav'), choice: 'auto' });
    expect(readdirSync(files)).toEqual(['a.wav']);
    expect(existsSync(join(files, 'cache'))).toBe(false);
  });
});
