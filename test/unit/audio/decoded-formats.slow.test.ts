/**
 * Everything measured on a WAV recording is measured the same on every decodable format. Real speech
 * (the AMI meeting clip of the speech corpus when present, else a speech-like recording) is encoded by
 * Debian's ffmpeg into FLAC, AIFF, CAF, MP3, Ogg Vorbis, Ogg Opus and WebM Opus at 64 kbps, and 8 kHz
 * µ-law WAV (scripts/validation/decoded-formats.ts); each file's speech estimate and local measures
 * are compared with its WAV original's.
 *
 * - The speech estimate is within 0.5 s of the original's, for every format.
 * - Lossless formats decode to the original's samples: every measure is the original's.
 * - Lossy formats: every measure is within the acoustic validation's target of the original's
 *   (docs/acoustics.md), except where the codec itself moves it further: then ffmpeg's decode of the
 *   same file misses the target too, and ours is within the target of ffmpeg's decode.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import {
  SPEECH_TOLERANCE_SECONDS,
  compareFormats,
  formatTable,
  type FormatRow,
} from '../../../scripts/validation/decoded-formats';
import { itWithTool } from '../../support/reference-tools';
import { speechSource } from '../../support/speech-source';

const dir = mkdtempSync(join(tmpdir(), 'vs-decoded-formats-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const missed = (m: FormatRow['measures']) =>
  Object.entries(m)
    .filter(([, v]) => !v.within)
    .map(([k]) => k);

itWithTool(
  ['ffmpeg'],
  'measures speech, voice and pauses in every decodable format as in its WAV original',
  async () => {
    const rows = await compareFormats(speechSource(dir), dir);
    console.log(formatTable(rows));
    for (const r of rows) {
      const name = r.format.name;
      expect(Math.abs(r.speech - r.originalSpeech), `${name}: speech`).toBeLessThanOrEqual(
        SPEECH_TOLERANCE_SECONDS,
      );
      if (r.format.lossless) {
        for (const [k, v] of Object.entries(r.measures))
          expect(Number.isNaN(v.diff) ? 0 : v.diff, `${name}: ${k}`).toBe(0);
        continue;
      }
      const f = r.ffmpeg!;
      expect(missed(f.oursAgainstFfmpeg), `${name}: ours against ffmpeg's decode`).toEqual([]);
      for (const k of missed(r.measures))
        expect(
          f.againstOriginal[k]!.within,
          `${name}: ${k} misses the original's target, ffmpeg's decode too`,
        ).toBe(false);
    }
  },
  1_800_000,
);
