/**
 * The service's size limit (50 MB, spec: Limits) and conversion: a file over the limit whose converted
 * copy (mono 16 kHz 16-bit WAV, 32,000 bytes a second) is under it is not refused before conversion: with
 * conversion on, the preview says it is converted and the commit sends the small copy. A file whose copy
 * would itself be over the limit is refused for its size in the preview, not after a useless conversion.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { LIMITS } from '../../../shared/api/vocabulary';
import { commitImport } from '../../../main/import/import-commit';
import { planImport } from '../../../main/import/import-plan';
import type { ImportRequest } from '../../../shared/study';
import { makeWav } from '../../fixtures/audio';
import { itWithTool } from '../../support/reference-tools';
import { dbWithStudy, importDb, importDbWithStudy } from './study-db';

const dir = mkdtempSync(join(tmpdir(), 'vs-convert-size-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const request = (paths: string[], convert: boolean): ImportRequest => ({
  studyId: 1,
  paths,
  filenamePattern: '{participant}_{session}.*',
  timeZone: 'UTC',
  analyses: ['wellbeing'],
  isolateOldestSpeaker: false,
  convert,
});

const ffmpeg = (args: string[]): void => {
  const r = spawnSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
  if (r.status !== 0) throw new Error(String(r.stderr));
};

describe('files over the size limit that conversion brings under it', () => {
  itWithTool(
    'ffmpeg',
    'a 96 kHz stereo FLAC over 50 MB is converted (a 6.4 MB copy), not refused for its size',
    async () => {
      const folder = join(dir, 'big');
      mkdirSync(folder);
      const flac = join(folder, 'P001_s1.flac');
      // 200 s of speech under noise at 96 kHz, 24 bits, stereo: FLAC cannot shrink the noise much.
      const speech = join(dir, 'speech.wav');
      writeFileSync(speech, makeWav({ seconds: 200, speechSeconds: 150, sampleRateHz: 16_000, seed: 4 }));
      ffmpeg([
        '-i',
        speech,
        '-f',
        'lavfi',
        '-i',
        'anoisesrc=c=white:r=96000:a=0.02:d=200',
        '-f',
        'lavfi',
        '-i',
        'anoisesrc=c=white:r=96000:a=0.02:d=200:seed=9',
        '-filter_complex',
        '[0:a]aresample=96000,asplit[s1][s2];[s1][1:a]amix=inputs=2:normalize=0[l];[s2][2:a]amix=inputs=2:normalize=0[r];[l][r]join=inputs=2:channel_layout=stereo',
        '-c:a',
        'flac',
        '-sample_fmt',
        's32',
        '-bits_per_raw_sample',
        '24',
        flac,
      ]);
      expect(statSync(flac).size).toBeGreaterThan(LIMITS.maxAudioBytes);

      const off = await planImport(importDbWithStudy(), request([folder], false));
      expect(off.files[0]!.action).toBe('refused');

      const db = dbWithStudy();
      const plan = await planImport(importDb(db), request([folder], true));
      expect(plan.files[0]).toMatchObject({
        action: 'convert_and_upload',
        verdict: { status: 'will_convert' },
      });
      expect(plan.files[0]!.sha256).toMatch(/^[0-9a-f]{64}$/);

      const convertedDir = join(dir, 'converted');
      mkdirSync(convertedDir);
      const result = await commitImport(importDb(db), plan, { convertedDir, now: () => 0 });
      expect(result.conversionFailures).toEqual([]);
      const row = db.prepare(`SELECT upload_path, upload_state FROM recordings`).get() as {
        upload_path: string;
        upload_state: string;
      };
      expect(row.upload_state).toBe('pending');
      expect(statSync(row.upload_path).size).toBe(44 + 200 * 16_000 * 2);
    },
    300_000,
  );

  itWithTool(
    'ffmpeg',
    'a 30-minute FLAC far under the limit whose copy would be 57.6 MB is refused for its size in the preview',
    async () => {
      const folder = join(dir, 'long');
      mkdirSync(folder);
      const flac = join(folder, 'P002_s1.flac');
      ffmpeg(['-f', 'lavfi', '-i', 'anoisesrc=c=pink:r=8000:a=0.001:d=1800', '-c:a', 'flac', flac]);
      expect(statSync(flac).size).toBeLessThan(LIMITS.maxAudioBytes);
      const plan = await planImport(importDbWithStudy(), request([folder], true));
      expect(plan.files[0]).toMatchObject({ action: 'refused', verdict: { status: 'refused' } });
      expect(plan.files[0]!.verdict.findings[0]).toMatchObject({ code: 'too_large' });
      expect(plan.files[0]!.verdict.findings[0]!.message).toMatch(/57\.6 MB/);
    },
    300_000,
  );
});
