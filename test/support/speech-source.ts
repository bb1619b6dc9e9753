/**
 * Real speech for the decoder tests: the pyannote sample of the evaluation corpus (VOICESCOPE_CORPUS,
 * default /work/corpus) when it is there, otherwise a speech-like WAV written into `dir`.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeWav } from '../fixtures/audio';

export const speechSource = (dir: string): string => {
  const real = join(process.env['VOICESCOPE_CORPUS'] ?? '/work/corpus', 'pyannote', 'sample.wav');
  if (existsSync(real)) return real;
  const made = join(dir, 'speech.wav');
  writeFileSync(made, makeWav({ seconds: 20, speechSeconds: 16, sampleRateHz: 16_000, seed: 11 }));
  return made;
};
