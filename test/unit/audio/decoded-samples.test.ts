/**
 * One path from any decodable recording to its samples: a FLAC or AIFF file gives the speech estimate,
 * the measures and the samples of its WAV original, and the window plays each format as it is or
 * through a decoded WAV copy holding the same samples.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { measureFile } from '../../../main/acoustics/measure';
import { openAudioDecoder } from '../../../main/audio/decode/index';
import { readMonoFile } from '../../../main/audio/decoded-samples';
import { measureFileSpeech } from '../../../main/audio/file-speech';
import { playbackCopy, playedAsIs } from '../../../main/audio/playback-copy';
import { makeWav } from '../../fixtures/audio';
import { itWithTool } from '../../support/reference-tools';

const dir = mkdtempSync(join(tmpdir(), 'vs-decoded-samples-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const wav = join(dir, 'original.wav');
writeFileSync(wav, makeWav({ seconds: 5, speechSeconds: 4, sampleRateHz: 16_000, seed: 5 }));
const encode = (name: string, args: string[] = []): string => {
  const out = join(dir, name);
  const r = spawnSync('ffmpeg', ['-loglevel', 'error', '-y', '-i', wav, ...args, out]);
  if (r.status !== 0) throw new Error(String(r.stderr));
  return out;
};

const must = async <T>(r: Promise<{ ok: true; value: T } | { ok: false; error: { detail: string } }>) => {
  const v = await r;
  if (!v.ok) throw new Error(v.error.detail);
  return v.value;
};

describe('a recording in any decodable format', () => {
  itWithTool(
    'ffmpeg',
    'FLAC and AIFF give the WAV original’s samples, speech and measures',
    async () => {
      const original = await must(readMonoFile(wav));
      const speech = await measureFileSpeech({ path: wav, choice: 'auto' });
      const measures = (await must(measureFile(wav))).measures;
      for (const file of [encode('a.flac', ['-c:a', 'flac']), encode('a.aiff')]) {
        const decoded = await must(readMonoFile(file));
        expect(decoded.sampleRateHz).toBe(16_000);
        expect(decoded.samples).toEqual(original.samples);
        const s = await measureFileSpeech({ path: file, choice: 'auto' });
        expect(s.sent.speechSeconds).toBe(speech.sent.speechSeconds);
        expect(s.totalSeconds).toBe(5);
        expect((await must(measureFile(file))).measures).toEqual(measures);
      }
    },
    180_000,
  );

  itWithTool(
    'ffmpeg',
    'plays FLAC as it is, and AIFF through a decoded WAV copy of the same samples',
    async () => {
      const flac = await must(openAudioDecoder(encode('b.flac', ['-c:a', 'flac'])));
      expect(playedAsIs(flac.info)).toBe('audio/flac');
      const aiff = await must(openAudioDecoder(encode('b.aiff')));
      expect(playedAsIs(aiff.info)).toBeNull();
      const ima = await must(openAudioDecoder(encode('ima.wav', ['-c:a', 'adpcm_ima_wav'])));
      expect(playedAsIs(ima.info)).toBeNull();
      const copy = await playbackCopy(aiff, join(dir, 'playback'), 'key');
      expect(readFileSync(copy)).toEqual(readFileSync(wav));
    },
  );

  it('refuses a file no decoder opens, in the decoder’s words', async () => {
    const junk = join(dir, 'junk.bin');
    writeFileSync(junk, 'not audio at all, just words');
    const r = await readMonoFile(junk);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.detail).toMatch(/not in an audio format Voicescope can decode/);
  });
});
